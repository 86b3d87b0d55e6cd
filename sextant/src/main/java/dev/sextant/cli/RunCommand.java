package dev.sextant.cli;

import dev.sextant.SextantApplication;
import dev.sextant.acl.NotAuthorizedException;
import dev.sextant.config.SextantConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs a Sextant instance until it is stopped (Ctrl-C or SIGTERM).",
                "Exits 0 when stopped, 1 when it failed (Kafka Streams stopped with an error, or a required input "
                        + "is missing), 3 when a cluster refused an ACL Sextant needs (the message names it)."})
final class RunCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SextantConfig loaded = config.load();
        SextantApplication app = new SextantApplication(loaded, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Thread hook = new Thread(app::close, "sextant-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            app.start();
        } catch (RuntimeException e) {
            app.close(); // what the start opened (clients, threads) before it was refused
            throw e;
        }
        Throwable failure = app.awaitStop();
        app.close();
        if (failure instanceof NotAuthorizedException) {
            spec.commandLine().getErr().println("Not authorized: " + failure.getMessage());
            return ExitCodes.NOT_AUTHORIZED;
        }
        if (failure != null) {
            spec.commandLine().getErr().println("sextant: " + failure.getMessage());
            return ExitCodes.FAILURE;
        }
        return ExitCodes.OK;
    }
}
