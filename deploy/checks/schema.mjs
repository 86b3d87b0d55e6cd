// Validates rendered Kubernetes objects (a multi-document YAML file, `kubectl kustomize` output) against the
// Kubernetes schemas, offline:
//  1. kubernetes-models: JSON schemas generated from Kubernetes' OpenAPI definitions (and, for the custom resources,
//     from their CRDs: PodMonitor and PrometheusRule from the Prometheus Operator's, KafkaUser from Strimzi's),
//     compiled with ajv: types, required fields, enums, int-or-string, quantities. A kind it has no schema for is an
//     error, not a pass.
//  2. Unknown fields, which those schemas let through (kubeconform's -strict; the API server drops such a field, or
//     refuses it under kubectl --validate=strict). Kubernetes' own kinds: every key is looked up in the field list of
//     @kubernetes/client-node's models, generated from the same OpenAPI definitions. Custom resources, which
//     client-node has no models for: a key the compiled CRD schema never reads while it validates the object is one
//     the CRD does not define (the schema reads every property it defines, and the entries of the maps it allows).
// Usage: node schema.mjs FILE.yaml; prints one line per object and per problem; exit code 1 on any problem.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import * as k8s from "@kubernetes/client-node";

// Where the schemas of custom resources come from, by API group.
const CRD_PACKAGES = {
  "monitoring.coreos.com": "@kubernetes-models/prometheus-operator",
  "kafka.strimzi.io": "@kubernetes-models/strimzi-kafka-operator",
};
// Objects a CRD declares free-form (x-kubernetes-preserve-unknown-fields), by API group: their keys are not the CRD's
// to define, so they are not unknown fields. Strimzi's `config` maps hold Kafka's and Connect's own settings
// (spec.clusters[].config, spec.mirrors[].sourceConnector.config, ...).
const FREE_FORM = {
  "kafka.strimzi.io": /\.config$/,
};

const file = process.argv[2];
const docs = parseAllDocuments(readFileSync(file, "utf8"));
const problems = [];
let count = 0;

for (const doc of docs) {
  if (doc.errors.length > 0) {
    problems.push(`${file}: YAML: ${doc.errors.map((e) => e.message).join("; ")}`);
    continue;
  }
  const object = doc.toJS();
  if (object == null) {
    continue;
  }
  count++;
  const { apiVersion = "", kind = "" } = object;
  const name = `${kind}/${object.metadata?.name} (${apiVersion})`;
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const crdPackage = CRD_PACKAGES[group];
  const modulePath = crdPackage
    ? `${crdPackage}/${group}/${version}/${kind}`
    : `kubernetes-models/${group ? group + "/" : ""}${version}/${kind}`;
  let Model;
  try {
    Model = (await import(modulePath))[kind];
  } catch (e) {
    problems.push(`${name}: no schema for this kind and version (${modulePath})`);
    continue;
  }
  let valid = true;
  try {
    new Model(object).validate();
  } catch (e) {
    valid = false;
    const details = (e.errors ?? []).map((d) => `${d.instancePath} ${d.message}`).join("; ");
    problems.push(`${name}: ${details || e.message}`);
  }
  if (crdPackage) {
    // on a valid object only: a failing schema may stop reading before it reaches every field
    if (valid) {
      unreadFields(Model, object, FREE_FORM[group], (path) => problems.push(`${name}: unknown field ${path}`));
    }
  } else {
    const groupName = group.split(".")[0];
    const className = (groupName ? capitalize(groupName) : "") + capitalize(version) + kind;
    const modelClass = k8s[className] ?? k8s[capitalize(version) + kind];
    if (!modelClass) {
      problems.push(`${name}: no field list for ${className}`);
    } else {
      unknownFields(object, modelClass.name, "", (path) => problems.push(`${name}: unknown field ${path}`));
    }
  }
  console.log(`checked ${name}`);
}

// Runs the model's compiled schema on `object` seen through proxies that record each key read, and reports the keys
// of every object that were never read, but those of the objects at a path `freeForm` matches.
function unreadFields(Model, object, freeForm, report) {
  const seen = [];
  const proxies = new WeakMap();
  const track = (value, path) => {
    if (value === null || typeof value !== "object") {
      return value;
    }
    if (!proxies.has(value)) {
      const read = new Set();
      seen.push({ value, path, read });
      proxies.set(value, new Proxy(value, {
        get(target, key, receiver) {
          const item = Reflect.get(target, key, receiver);
          if (typeof key !== "string" || !Object.hasOwn(target, key)) {
            return item;
          }
          read.add(key);
          return track(item, Array.isArray(target) ? `${path}[${key}]` : `${path}.${key}`);
        },
      }));
    }
    return proxies.get(value);
  };
  // the model's validate() runs the schema on `this`: given the proxy, the schema reads through it
  Model.prototype.validate.call(track(object, ""));
  for (const { value, path, read } of seen) {
    if (!Array.isArray(value) && !freeForm?.test(path)) {
      Object.keys(value).filter((key) => !read.has(key)).forEach((key) => report(`${path}.${key}`));
    }
  }
}

function capitalize(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Walks `value` as an instance of the client-node type `type`, reporting keys that type does not define.
function unknownFields(value, type, path, report) {
  if (value == null) {
    return;
  }
  let m;
  if ((m = /^Array<(.+)>$/.exec(type))) {
    if (Array.isArray(value)) {
      value.forEach((item, i) => unknownFields(item, m[1], `${path}[${i}]`, report));
    }
    return;
  }
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(type))) {
    for (const [key, item] of Object.entries(value)) {
      unknownFields(item, m[1], `${path}.${key}`, report);
    }
    return;
  }
  const modelClass = k8s[type];
  if (typeof modelClass?.getAttributeTypeMap !== "function" || typeof value !== "object") {
    return; // a scalar, IntOrString, any: the schema step checks these
  }
  const fields = new Map(modelClass.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  for (const [key, item] of Object.entries(value)) {
    if (!fields.has(key)) {
      report(`${path}.${key}`);
    } else {
      unknownFields(item, fields.get(key), `${path}.${key}`, report);
    }
  }
}

for (const p of problems) {
  console.log(`PROBLEM ${p}`);
}
console.log(`${count} objects, ${problems.length} problems`);
process.exit(problems.length === 0 && count > 0 ? 0 : 1);
