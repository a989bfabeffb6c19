// Package llm is the client for OpenAI-compatible chat-completions
// endpoints: streaming requests, the accumulation of the assistant message,
// token counting with /tokenize, and the message types saved in sessions.
//
// # Entry points
//
//	New(ep, apiKey, opts...) *Client
//	(*Client).Stream(ctx, Request, onDelta) (Response, error)   streamed reply, deltas live
//	(*Client).Complete(ctx, Request) (Message, error)           one whole reply (approval descriptions)
//	(*Client).Models(ctx) ([]string, error)                     GET {base_url}/models
//	(*Client).ListModels(ctx) ([]Model, error)                  the same, with owned_by
//	NewTokenizer(baseURL, apiKey).Count(ctx, text)              POST {base_url minus /v1}/tokenize
//	SplitTurns, CountTurns, EstimateTurn, Estimate              context display counts
//
// # Requests
//
// A request is POST {base_url}/chat/completions with model, messages (the
// Request.System message first when set; it is never stored), tools,
// stream and stream_options {"include_usage": true}, then every
// [endpoint.parameters] entry as a top-level member, in key order.
// Authorization: Bearer is sent only when the API key is non-empty. Message
// members harness does not interpret (Message.Extra) are written back
// byte-for-byte. The messages go out in a form every chat template accepts:
// consecutive user messages are merged into one (texts joined by a blank
// line) and assistant messages with neither content nor tool calls are
// left out; Request.Messages (and so the session file) is not changed.
//
// # Retries and timeouts
//
// Stream and Complete send a request up to 1 + [endpoint] max_retries
// times. Decide, a pure function of the attempt number, the error (with
// the response headers) and the time, is the whole policy: connection
// failures, idle timeouts, 408/409/425/429/5xx (500, 502–504, 520–529),
// streams that broke before their finish and overload or rate-limit error
// objects in a 200 stream are retried; everything else is returned at once.
// The wait is the server's retry-after-ms or Retry-After (seconds or an
// HTTP date) when given, else exponential with full jitter (a random part
// of 1 s, 2 s, 4 s … up to 30 s); a server asking for more than 120 s
// fails at once with a *WaitError saying when to try again. Before each
// wait Stream's callback gets a DeltaRetry: the deltas before it are void,
// and nothing of a failed attempt is returned unless it was the last.
// Cancelling the context ends a wait at once.
//
// Each attempt ends with an *IdleError when it makes no progress for
// [endpoint] idle_timeout_s: no content, reasoning or tool-call text since
// the request, its response headers or the last such text (SSE comments,
// keep-alives and empty deltas do not count). MaxBytesWithoutProgress
// bytes without progress end it too (*NoProgressError), and a line over
// MaxLineBytes (*LineTooLongError), so no stream holds a turn or memory
// for as long as the server likes. The
// waits and timers run on a Clock (WithClock; tests use llmtest.Clock), the
// jitter on WithRand.
//
// # Streams
//
// The SSE parser accepts "data:" with or without a space, comment and
// keep-alive lines, CRLF, blank lines, "event: error", lines of any length,
// chunks whose choices are empty or null (usage only; Azure's
// prompt_filter_results), empty data heartbeats, an error inside the stream
// (an "error" member, possibly wrapping another, or vLLM's chunk whose
// "object" is "error"), llama.cpp's "error:" lines, bare JSON lines, events
// split over several data lines, and an application/json answer to a
// streaming request. A body that is not an event stream at all is quoted in
// the error. The stream ends at [DONE], or at the end of the body once a
// finish_reason was seen (even a cut connection then loses nothing but
// perhaps the usage); an end before that is ErrTruncated. Deltas reach the
// callback as soon as their line is read.
//
// # Accumulation rules
//
//   - content concatenates; a content array contributes its text parts.
//   - reasoning_content and reasoning concatenate, each kept under its own
//     name. reasoning_details arrays merge: an entry with an "index" merges
//     into the earlier entry of that index (text, summary, data and
//     signature concatenate, other members keep the last value); entries
//     without index are appended. The stored value is always a JSON array.
//   - The reasoning shown live (DeltaReasoning) is the text of the first of
//     those fields to carry text; the same text arriving under another name
//     is not shown again, and text that only extends it shows the extension.
//     The concatenated DeltaReasoning texts equal Message.Reasoning() (in
//     the pathological case of two fields that disagree mid-way, the later
//     one is sent once at the end, after a newline).
//   - Every other delta member is kept in Message.Extra in the order first
//     received: string values concatenate across chunks, and once a field
//     holds text no other value (null, number, object, …) replaces it; a
//     field that never held text keeps the last value received. A reasoning field that stays empty is
//     still kept, after the others.
//   - Tool calls merge by index: id and name are taken from the first
//     fragment that has them, arguments concatenate (an arguments object is
//     taken as its JSON text). A fragment without index continues the last
//     call, unless it has no id either and names a function while the last
//     call is named and its arguments are whole JSON: then it starts a
//     call. A fragment whose id differs from the call at its index starts a
//     new call. A fragment carrying exactly a call's complete arguments (a
//     whole-call repeat on the finish chunk, with or without the id) adds
//     nothing.
//     Other tool-call members keep their last value. Each call gets a
//     NewCallID when it starts; that ID is in the DeltaToolCall and in the
//     saved message, and provider IDs are never stored.
//   - role may repeat; finish_reason and usage take the last value
//     received (usage from "usage" or Groq's "x_groq.usage"), never summed.
//   - finish_reason "length" drops tool calls without a name or whose
//     arguments are not whole JSON.
//
// # Errors
//
// Every error says what to do. *ConnectError names the URL and suggests
// `harness doctor`; *StatusError carries the status, the provider's
// message (JSON, text or an HTML page's title, truncated), the headers and
// advice: for 401/403 where the key was looked for (api_key_env, the
// environment, .env; see WithOrigin), for 404 or an unknown model the
// [endpoint] model setting. *ProviderError is an error object sent inside
// the stream; ErrTruncated and ErrMalformed wrap cut and broken streams;
// *IdleError a stall; *RetriesError the last failure of a request that was
// retried. ContextExceeded and ModelMissing classify errors for the
// callers' own advice. The client's API key never appears in an error: it
// is replaced by [REDACTED] in everything quoted from the server. In all
// these cases Stream's Response holds the partial message of the last
// attempt. Cancelling the context stops reading at once and returns the
// context's error with the partial message.
//
// # Token counting
//
// The Tokenizer posts to base_url with a final /v1 removed, plus /tokenize.
// It tries llama.cpp's form ({"content": s} → {"tokens": [...]}, tokens
// may be objects with pieces) and, when the server refuses that form (a 4xx
// answer, or a 200 without tokens), vLLM's ({"prompt": s} → {"count": n}).
// The form that works is kept. A 5xx or a connection failure decides
// nothing (llama.cpp answers 503 while it loads a model); a server with no
// route for either form (404, 405, 501) is remembered and not asked again.
//
// CountTurns counts the turns of a conversation (SplitTurns: a user message
// and what follows it) by progressive prefixes of the compact JSON array of
// the messages, "[m0,m1,…,mi": a message counts the tokens through it minus
// those through the message before, a turn the sum of its messages. Turns
// found in the cache by Key (a hash of their content) make no request. When
// any request for a turn fails, the whole turn is estimated (EstimateTurn:
// ceil(bytes/3.25) of its compact JSON) and marked Estimated.
package llm
