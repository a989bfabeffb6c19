// An editor built on the official TypeScript ACP client
// (@agentclientprotocol/sdk): it starts harness acp, initializes, creates
// a session (after one refused for its relative cwd), sends a prompt too
// long to take (refused), prompts, allows the one permission request
// once, checks the updates (every message passed the SDK's schema
// checks), lists the sessions, sets the mode, closes the session and
// loads it again (checking the replay), and prints a JSON summary for the
// Go test.
//
// Environment: HARNESS_ACP_SDK (the SDK's dist/v1/stable/acp.js),
// HARNESS_BIN (the harness binary; its arguments follow "acp"), REPO (the
// session's cwd).

import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const acp = await import(pathToFileURL(process.env.HARNESS_ACP_SDK).href);
const repo = process.env.REPO;

const child = spawn(process.env.HARNESS_BIN, ["acp"], { cwd: repo, stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const updates = [];
const permissions = [];
const app = acp
  .client({ name: "harness-interop" })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    permissions.push(params);
    const once = params.options.find((o) => o.kind === "allow_once");
    return { outcome: { outcome: "selected", optionId: once.optionId } };
  })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params);
  });

function check(ok, what) {
  if (!ok) {
    console.error("acp-client.mjs: " + what);
    process.exit(1);
  }
}

const summary = await app.connectWith(stream, async (ctx) => {
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: "harness-interop", version: "1" },
  });
  check(init.protocolVersion === 1 && init.agentCapabilities.loadSession === true, "initialize: " + JSON.stringify(init));
  // A refused cwd says why in the error's message, which editors show.
  const refused = await ctx.request(acp.methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] }).then(
    () => null,
    (e) => e,
  );
  check(refused && refused.code === -32602 && /is not an absolute path/.test(refused.message), "session/new with a relative cwd: " + (refused && refused.message));
  const session = await ctx.request(acp.methods.agent.session.new, { cwd: repo, mcpServers: [] });
  check(session.modes && session.modes.availableModes.length === 3, "session/new: " + JSON.stringify(session));
  // A prompt over harness's 8 MiB limit is answered with an error, not left
  // waiting.
  const huge = await ctx.request(acp.methods.agent.session.prompt, {
    sessionId: session.sessionId,
    prompt: [{ type: "resource", resource: { uri: "file://" + repo + "/huge.log", text: "x".repeat(9 << 20) } }],
  }).then(
    () => null,
    (e) => e,
  );
  check(huge && huge.code === -32600 && /longer than/.test(huge.message), "an oversize prompt: " + (huge && huge.message));
  const prompt = await ctx.request(acp.methods.agent.session.prompt, {
    sessionId: session.sessionId,
    prompt: [{ type: "text", text: "Touch the file " }, { type: "resource_link", name: "x", uri: "file://" + repo + "/x" }],
  });
  const list = await ctx.request(acp.methods.agent.session.list, { cwd: repo });
  await ctx.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: "read-only" });
  await ctx.request(acp.methods.agent.session.close, { sessionId: session.sessionId });
  const live = updates.length;
  const load = await ctx.request(acp.methods.agent.session.load, { sessionId: session.sessionId, cwd: repo, mcpServers: [] });
  const replayed = updates.slice(live).map((n) => n.update);
  return { init, session, prompt, list, load, replayed };
});

check(summary.load.modes.currentModeId === "read-only", "session/load: " + JSON.stringify(summary.load));
const replayedText = (kind) => summary.replayed.filter((u) => u.sessionUpdate === kind).map((u) => u.content.text).join("");
check(replayedText("user_message_chunk") === "Touch the file @x", "replayed prompt " + JSON.stringify(replayedText("user_message_chunk")));
check(replayedText("agent_message_chunk") === "Touched x.", "replayed answer " + JSON.stringify(replayedText("agent_message_chunk")));
check(summary.replayed.filter((u) => u.sessionUpdate === "tool_call").length === 4, "replayed calls " + JSON.stringify(summary.replayed));

const mine = updates.slice(0, updates.length - summary.replayed.length).filter((n) => n.sessionId === summary.session.sessionId).map((n) => n.update);
const text = (kind) => mine.filter((u) => u.sessionUpdate === kind).map((u) => u.content.text).join("");
const calls = new Map();
for (const u of mine) {
  if (u.sessionUpdate === "tool_call") {
    calls.set(u.toolCallId, { title: u.title, kind: u.kind, statuses: [u.status] });
  } else if (u.sessionUpdate === "tool_call_update") {
    const c = calls.get(u.toolCallId);
    check(c !== undefined, "a tool_call_update before its tool_call: " + JSON.stringify(u));
    if (u.status) c.statuses.push(u.status);
  }
}
check(summary.prompt.stopReason === "end_turn", "stopReason " + summary.prompt.stopReason);
check(text("agent_message_chunk") === "Touched x.", "message " + JSON.stringify(text("agent_message_chunk")));
check(permissions.length === 1, permissions.length + " permission requests");
check(calls.has(permissions[0].toolCall.toolCallId), "the permission request names an unknown call");
for (const [id, c] of calls) {
  check(c.statuses[c.statuses.length - 1] === "completed", id + " " + JSON.stringify(c));
}
check(summary.list.sessions.some((s) => s.sessionId === summary.session.sessionId && s.cwd === repo), "session/list: " + JSON.stringify(summary.list));

child.stdin.end();
const code = await exited;
check(code === 0, "harness acp exited " + code);
console.log(JSON.stringify({ sessionId: summary.session.sessionId, titles: [...calls.values()].map((c) => c.title), thoughts: text("agent_thought_chunk") }));
