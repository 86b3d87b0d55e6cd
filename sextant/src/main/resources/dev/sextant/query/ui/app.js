// Sextant's status page: reads the JSON API of the instance that serves it, every 5 seconds. No framework, no build.
"use strict";

const REFRESH_MS = 5000;
const HISTORY = 60;
const latency = [];
let previousSum = null;
let previousCount = null;
let selected = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  });
  children.flat().forEach(c => node.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c))));
  return node;
}

function age(ms) {
  if (ms == null) return "-";
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return s + " s ago";
  if (s < 3600) return Math.round(s / 60) + " min ago";
  return Math.round(s / 3600) + " h ago";
}

function time(ms) {
  return ms == null ? "-" : new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

// With query.auth.token set, open the page as /#token=<token>: the fragment never leaves the browser, and the token
// goes on the API calls only.
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("token");

function requestHeaders(headers) {
  return TOKEN ? { ...headers, Authorization: "Bearer " + TOKEN } : headers;
}

async function json(path) {
  const response = await fetch(path, { headers: requestHeaders({ Accept: "application/json" }) });
  const body = await response.json().catch(() => ({}));
  return { status: response.status, body };
}

// Kafka's coordinator partition of a group: Utils.abs(group.hashCode()) % partitions, as in Java
function coordinatorPartition(group, partitions) {
  let h = 0;
  for (let i = 0; i < group.length; i++) h = (Math.imul(31, h) + group.charCodeAt(i)) | 0;
  return (h & 0x7fffffff) % partitions;
}

function fill(table, rows) {
  const body = document.querySelector(table + " tbody");
  body.replaceChildren(...rows);
}

async function refreshHealth() {
  const { status, body } = await json("/health/ready");
  const badge = document.getElementById("health");
  badge.className = "badge " + (status === 200 ? "up" : "down");
  badge.textContent = status === 200 ? "ready" : "not ready: " + (body.problem || body.streamsState || status);
  return body;
}

async function refreshGroups(owners) {
  const { body } = await json("/v1/groups");
  const groups = body.groups || [];
  const counts = {};
  groups.forEach(g => { counts[g.state] = (counts[g.state] || 0) + 1; });
  document.getElementById("summary").textContent = groups.length + " groups: " +
      Object.entries(counts).map(([s, n]) => n + " " + s.toLowerCase().replace("_", " ")).join(", ");
  fill("#groups", groups.map(g => {
    const row = el("tr", { class: "clickable", "data-group": g.group },
        el("td", {}, g.group), el("td", {}, g.groupType), el("td", { class: "state-" + g.state }, g.state),
        el("td", { class: "num" }, g.partitions), el("td", {}, time(g.lastSourceCommit)),
        el("td", {}, age(g.lastApply)), el("td", { class: "num" }, g.worstReplayBound == null ? "-" : g.worstReplayBound),
        el("td", {}, owners(g.group)));
    row.addEventListener("click", () => { selected = g.group; refreshDetail(); });
    return row;
  }));
}

async function refreshDetail() {
  const detail = document.getElementById("detail");
  if (!selected) return;
  const { status, body } = await json("/v1/groups/" + encodeURIComponent(selected));
  if (status !== 200) {
    detail.replaceChildren(el("p", { class: "error" }, selected + ": " + (body.error || status)));
    return;
  }
  detail.replaceChildren(el("h3", {}, body.group + " (" + body.groupType + ")"), el("table", {},
      el("thead", {}, el("tr", {}, ["source", "source offset", "destination", "translated", "applied", "precision",
          "bound", "applied at", "status"].map(h => el("th", {}, h)))),
      el("tbody", {}, body.partitions.map(p => el("tr", {},
          el("td", {}, p.topic + "-" + p.partition), el("td", { class: "num" }, p.sourceOffset),
          el("td", {}, p.destinationTopic + "-" + p.partition),
          el("td", { class: "num" }, p.translatedOffset == null ? "-" : p.translatedOffset),
          el("td", { class: "num" }, p.appliedOffset == null ? "-" : p.appliedOffset),
          el("td", {}, p.precision || "-"), el("td", { class: "num" }, p.bound == null ? "-" : p.bound),
          el("td", {}, age(p.appliedAt)), el("td", { class: "state-" + p.status }, p.status))))));
}

async function refreshInstances() {
  const { body } = await json("/v1/instances");
  const instances = body.instances || [];
  const all = instances.flatMap(i => i.partitions);
  const partitions = all.length === 0 ? 0 : Math.max(...all) + 1;
  const ownerOf = {};
  instances.forEach(i => i.partitions.forEach(p => { ownerOf[p] = i.address; }));
  return {
    instances,
    owners: group => partitions === 0 ? "-" : (ownerOf[coordinatorPartition(group, partitions)] || "-"),
  };
}

function showInstances(instances, groups) {
  fill("#instances", instances.map(i => el("tr", {},
      el("td", {}, i.address + (i.self ? " (this one)" : "")),
      el("td", {}, i.partitions.join(", ") || "-"),
      el("td", { class: "num" }, groups.filter(g => g === i.address).length))));
}

async function refreshConflicts() {
  const { body } = await json("/v1/conflicts?limit=20");
  const newestFirst = (body.conflicts || []).slice().sort((a, b) => (b.detectedAt || 0) - (a.detectedAt || 0));
  fill("#conflicts", newestFirst.map(c => el("tr", {},
      el("td", {}, time(c.detectedAt)), el("td", {}, c.group), el("td", {}, c.groupType),
      el("td", { class: "state-" + c.reason }, c.reason), el("td", {}, c.detail))));
}

// the mean of the latencies recorded since the last refresh, and the recent max, from Prometheus text
async function refreshLatency() {
  const text = await (await fetch("/metrics", { headers: requestHeaders({}) })).text();
  let sum = 0;
  let count = 0;
  let max = 0;
  text.split("\n").forEach(line => {
    const m = line.match(/^sextant_sync_latency_seconds_(sum|count|max)\{[^}]*\} ([0-9.eE+-]+)$/);
    if (!m) return;
    const v = Number(m[2]);
    if (m[1] === "sum") sum += v; else if (m[1] === "count") count += v; else max = Math.max(max, v);
  });
  if (previousCount != null && count > previousCount) {
    latency.push({ mean: (sum - previousSum) / (count - previousCount), max });
  } else if (previousCount != null) {
    latency.push({ mean: null, max });
  }
  previousSum = sum;
  previousCount = count;
  while (latency.length > HISTORY) latency.shift();
  drawLatency();
}

function drawLatency() {
  const svg = document.getElementById("latency");
  const top = Math.max(0.1, ...latency.map(p => Math.max(p.max, p.mean || 0)));
  const x = i => 40 + i * (550 / Math.max(1, HISTORY - 1));
  const y = v => 180 - (v / top) * 160;
  const line = (key, cls) => {
    const points = latency.map((p, i) => p[key] == null ? null : x(i) + "," + y(p[key]).toFixed(1))
        .filter(p => p !== null).join(" ");
    const node = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    node.setAttribute("points", points);
    node.setAttribute("class", cls);
    return node;
  };
  const label = (text, ty) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", "text");
    node.setAttribute("x", "2");
    node.setAttribute("y", String(ty));
    node.textContent = text;
    return node;
  };
  svg.replaceChildren(label(top.toFixed(2) + " s", 24), label("0", 182), line("mean", "mean"), line("max", "max"));
}

async function refresh() {
  try {
    await refreshHealth();
    const { instances, owners } = await refreshInstances();
    await refreshGroups(owners);
    const groupOwners = [...document.querySelectorAll("#groups tbody tr td:last-child")].map(td => td.textContent);
    showInstances(instances, groupOwners);
    await refreshConflicts();
    await refreshLatency();
    await refreshDetail();
    document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
  } catch (e) {
    document.getElementById("updated").textContent = "cannot reach this instance: " + e.message;
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
