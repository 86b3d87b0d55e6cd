// Policy scan of rendered Kubernetes objects (`kubectl kustomize` output), offline, with Monokle's validation
// library (@monokle/validation): every rule of its "practices" plugin (KBP: resources, read-only root filesystem,
// capabilities, user and group ids, service-account token, privileged ports, image tags, ...), of its
// "pod-security-standards" plugin (PSS: the Kubernetes Pod Security Standards, baseline and restricted) and of its
// "resource-links" plugin (references to ConfigMaps, Secrets, ServiceAccounts, selectors that match nothing), all
// as errors, including those Monokle leaves off by default.
// A finding is suppressed only by an annotation on the object itself, monokle.io/suppress.<rule id>, whose value is
// the justification (a bare "true" is refused): the reason sits next to the object it excuses.
// Then a few rules of this project that Monokle has no rule for (PROJECT below).
// Usage: node policy.mjs FILE.yaml; exit code 1 on any unsuppressed finding.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { createDefaultMonokleValidator, processRefs, ResourceParser } from "@monokle/validation";

// The scan is offline by construction: Monokle's schema and OPA plugins would download schemas and policies; they
// are off, and any download attempt fails the scan instead of waiting on the network.
globalThis.fetch = async (url) => {
  throw new Error(`the policy scan must not download anything (${url})`);
};

const PLUGINS = ["practices", "pod-security-standards", "resource-links"];
const file = process.argv[2];
const text = readFileSync(file, "utf8");
const resources = [];
for (const doc of parseAllDocuments(text)) {
  const content = doc.toJS();
  if (content == null) {
    continue;
  }
  const [start, , end] = doc.range;
  resources.push({
    id: `${content.kind}/${content.metadata?.namespace ?? ""}/${content.metadata?.name}`,
    fileId: file,
    filePath: file,
    fileOffset: start,
    name: content.metadata?.name,
    apiVersion: content.apiVersion,
    kind: content.kind,
    namespace: content.metadata?.namespace,
    content,
    text: text.slice(start, end),
  });
}

const validator = createDefaultMonokleValidator();
// the three above; off: the two the default validator turns on (schemas come from schema.mjs; the YAML was parsed)
const plugins = { ...Object.fromEntries(PLUGINS.map((p) => [p, true])), "kubernetes-schema": false,
  "yaml-syntax": false };
await validator.preload({ plugins });
const rules = {};
for (const [plugin, list] of Object.entries(validator.rules)) {
  if (PLUGINS.includes(plugin)) {
    for (const rule of list) {
      rules[`${plugin}/${rule.name}`] = "err";
    }
  }
}
await validator.preload({ plugins, rules });
processRefs(resources, new ResourceParser());
const response = await validator.validate({ resources });

const findings = [];
const suppressed = [];
const ruleCount = Object.keys(rules).length;
const ruleNames = new Map(Object.values(validator.rules).flat().map((r) => [r.id, r.name]));
for (const run of response.runs) {
  for (const result of run.results) {
    const where = result.locations?.[1]?.logicalLocations?.[0]?.fullyQualifiedName ?? "?";
    const line = `${result.ruleId} ${ruleNames.get(result.ruleId) ?? ""} ${where}: ${result.message.text}`;
    const suppression = result.suppressions?.find((s) => s.status === "accepted");
    if (suppression?.justification) {
      suppressed.push(`${line} -- suppressed: ${suppression.justification}`);
    } else if (suppression) {
      findings.push(`${line} -- suppressed without a justification (annotate with the reason, not "true")`);
    } else {
      findings.push(line);
    }
  }
}

// PROJECT rules: what Monokle does not check and this project requires of every workload it renders.
const workloads = resources.filter((r) => ["StatefulSet", "Deployment", "Job"].includes(r.kind));
for (const w of workloads) {
  const pod = w.content.spec.template.spec;
  const name = w.id;
  if (pod.automountServiceAccountToken !== false) {
    findings.push(`PROJECT ${name}: the pod must set automountServiceAccountToken: false`);
  }
  for (const c of pod.containers) {
    const sc = c.securityContext ?? {};
    const missing = [];
    if (sc.runAsNonRoot !== true) missing.push("runAsNonRoot: true");
    if (!(sc.runAsUser > 0) || !(sc.runAsGroup > 0)) missing.push("runAsUser and runAsGroup");
    if (sc.allowPrivilegeEscalation !== false) missing.push("allowPrivilegeEscalation: false");
    if (sc.readOnlyRootFilesystem !== true) missing.push("readOnlyRootFilesystem: true");
    if (!(sc.capabilities?.drop ?? []).includes("ALL")) missing.push("capabilities.drop [ALL]");
    if (sc.seccompProfile?.type !== "RuntimeDefault") missing.push("seccompProfile RuntimeDefault");
    if (missing.length > 0) {
      findings.push(`PROJECT ${name} container ${c.name}: securityContext lacks ${missing.join(", ")}`);
    }
    const memory = c.resources ?? {};
    if (!memory.limits?.memory || memory.requests?.memory !== memory.limits.memory) {
      findings.push(`PROJECT ${name} container ${c.name}: memory request must equal the memory limit`);
    }
    const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === "/tmp");
    if (!tmp || !pod.volumes?.some((v) => v.name === tmp.name && v.emptyDir)) {
      findings.push(`PROJECT ${name} container ${c.name}: /tmp must be an emptyDir (the root filesystem is read-only)`);
    }
    if (w.kind !== "Job" && !(c.livenessProbe && c.readinessProbe && c.startupProbe)) {
      findings.push(`PROJECT ${name} container ${c.name}: needs startup, liveness and readiness probes`);
    }
  }
  if (w.kind !== "Job") {
    // present, and selecting these pods (the resource-links suppression on the NetworkPolicy must not hide a
    // selector that misses them)
    const labels = w.content.spec.template.metadata?.labels ?? {};
    const selects = (selector) => selector?.matchLabels && Object.keys(selector.matchLabels).length > 0
      && Object.entries(selector.matchLabels).every(([k, v]) => labels[k] === v);
    for (const kind of ["PodDisruptionBudget", "NetworkPolicy"]) {
      if (!resources.some((r) => r.kind === kind && selects(r.content.spec?.podSelector ?? r.content.spec?.selector))) {
        findings.push(`PROJECT ${name}: no ${kind} selects its pods`);
      }
    }
    if (!resources.some((r) => r.kind === "ServiceAccount" && r.name === pod.serviceAccountName)) {
      findings.push(`PROJECT ${name}: its ServiceAccount ${pod.serviceAccountName} is not rendered with it`);
    }
  }
}

for (const s of suppressed) {
  console.log(`SUPPRESSED ${s}`);
}
for (const f of findings) {
  console.log(`FINDING ${f}`);
}
console.log(`${resources.length} objects, ${ruleCount} Monokle rules, ${findings.length} findings, ` +
  `${suppressed.length} suppressed`);
process.exit(findings.length === 0 && resources.length > 0 ? 0 : 1);
