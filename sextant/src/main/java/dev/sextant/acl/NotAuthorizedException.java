package dev.sextant.acl;

/**
 * Sextant's principal lacks a permission it needs on a cluster; the message names each missing permission and the
 * {@code kafka-acls} command that grants it. {@code bin/sextant run} exits with code 3 on it.
 */
public class NotAuthorizedException extends RuntimeException {

    public NotAuthorizedException(String message, Throwable cause) {
        super(message, cause);
    }
}
