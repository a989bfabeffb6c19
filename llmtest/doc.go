// Package llmtest is a fake OpenAI-compatible endpoint for tests: an
// in-process httptest server with scripted replies, fault injection, a
// /models list, /tokenize in the llama.cpp and vLLM dialects, and a record
// of every request.
//
// # Routes
//
//	POST <URL>/chat/completions   (URL ends in /v1; also served without /v1)
//	GET  <URL>/models
//	POST <Root>/tokenize
//
// # Scripting a conversation
//
// Each chat request takes the next queued Reply; when the queue is empty,
// the function set with Respond answers; when there is none either, the
// request gets a 500 and the test fails when the server closes.
//
//	srv := llmtest.New(t,
//		llmtest.Call("repl", `{"code":"print(1)"}`), // first request: a tool call
//		llmtest.Text("done"),                        // second: the answer
//	)
//	cfg.Endpoint = srv.Endpoint()                    // or srv.Client("")
//	... run the code under test ...
//	body := srv.Chats()[1].MustChat(t)               // what the client sent
//	// body.Messages[2].Role == "tool", body.ToolNames(), body.Fields["temperature"]
//
// A Reply streams, in order: a role chunk, the Reasoning (under each of
// ReasoningFields), the Content, the ToolCalls (each split into a first
// fragment with id and name and then argument fragments), a finish chunk,
// and the usage as UsageMode says, then "data: [DONE]". Split sets the
// fragment size; Delay the pause before each chunk. A request with
// "stream": false gets the same reply as one chat.completion object.
//
// For anything the generator does not produce, Chunks sends given data
// payloads one per event, and Raw (or llmtest.Raw) writes a recorded body
// verbatim, so streams captured from real servers replay byte for byte.
//
// # Faults
//
//	Error(429, `{"error":{"message":"slow down"}}`)  status with a JSON body
//	Error(502, "Bad Gateway")                        status with a text body
//	Reply{Content: "…", Split: 3, Fail: FailCut, After: 2}        cut after 2 chunks
//	Reply{…, Fail: FailMalformed, After: 2}          chunk 3 is truncated JSON
//	Reply{…, Fail: FailStall, After: 1}              silence until the request is cancelled
//	Reply{Fail: FailDrop}                            connection closed before any byte
//	Reply{Fail: FailStallHeaders}                    silence before the headers
//	Error(429, "").WithHeader("Retry-After", "3")    any reply with extra headers
//	ErrorEvent(`{"error":{"type":"overloaded_error"}}`)  a 200 stream whose first event is an error
//	Reply{Chunks: []string{": keep-alive", …}}        a chunk starting with ":" is an SSE comment
//	Reply{…, Gate: ch}                               each chunk waits for a value on ch
//
// Stalled receives each time a reply starts stalling, so a test knows the
// server has sent everything before the stall. An Error body starting with
// "<" is sent as text/html.
//
// # Time
//
// Clock is a fake llm.Clock for llm.WithClock: its time moves only with
// Advance (or with every Sleep after AutoSleep), timers fire when reached,
// Sleeps records every wait, and WaitFor/WaitSleeping block until the
// client has armed a timer or started a wait. With it, tests of retries
// and idle timeouts assert the waits without sleeping.
//
// A request with "stream": false honours the same faults: FailCut and
// FailStall send the headers and then cut or stall, FailMalformed sends half
// the JSON object.
//
// FailModels makes /models fail; SetModels changes its list. SetTokenize
// picks the /tokenize dialect (TokenizeLlama, TokenizeLlamaPieces,
// TokenizeVLLM) or a failure (TokenizeFail, TokenizeMissing);
// FailTokenizeWhen fails chosen texts; SetTokenCount replaces the default
// count of one token per 4 bytes (CountBytes4).
//
// # Outside tests
//
// Serve runs a server in a program of its own until it is signalled,
// writing its URL to a file (scripts/uitour, uidemo and uicost drive the
// built binary against it); Prose is a long reply of four-byte tokens to
// stream.
//
// # Records
//
// Requests returns every request (method, path, headers, body) in arrival
// order; Chats and Tokenizes filter by route. Request.Chat decodes a chat
// body into Model, Messages ([]llm.Message, Extra kept), Tools, Stream and
// the raw top-level Fields; ChatBody.RawMessages gives each message exactly
// as sent, for byte-for-byte assertions. Roles summarizes a conversation,
// sent or saved, as "user assistant:FYI tool …".
//
// All methods are safe for concurrent use; the server closes itself at the
// end of the test (Close ends stalled replies first).
package llmtest
