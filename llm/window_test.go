package llm_test

import (
	"context"
	"errors"
	"testing"

	"harness/llm"
	"harness/llmtest"
)

func TestDetectWindow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		advert llmtest.Advert
		want   int
		source string
	}{
		{"llama.cpp /props", llmtest.AdvertProps, 12288, llm.WindowFromProps},
		{"OpenRouter context_length", llmtest.AdvertOpenRouter, 8192, llm.WindowFromModels},
		{"vLLM max_model_len", llmtest.AdvertVLLM, 32768, llm.WindowFromModels},
		{"LM Studio loaded_context_length", llmtest.AdvertLMStudio, 4096, llm.WindowFromModels},
		{"Ollama /api/ps", llmtest.AdvertOllamaPS, 8192, llm.WindowFromOllama},
		{"Ollama /api/show num_ctx", llmtest.AdvertOllamaShow, 2048, llm.WindowFromOllama},
		{"nothing said", llmtest.AdvertNone, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.New(t)
			srv.SetWindow(max(c.want, 1000), c.advert, llmtest.RefuseLlama)
			w := llm.NewWindow(0)
			w.Detect(context.Background(), srv.Client(""))
			w.Wait(context.Background())
			n, src := w.Tokens()
			if n != c.want || src != c.source {
				t.Errorf("window = %d from %q, want %d from %q", n, src, c.want, c.source)
			}
		})
	}
}

func TestConfiguredWindowWins(t *testing.T) {
	t.Parallel()
	srv := llmtest.New(t)
	srv.SetWindow(12288, llmtest.AdvertProps, llmtest.RefuseLlama)
	w := llm.NewWindow(4000)
	w.Detect(context.Background(), srv.Client(""))
	if n, src := w.Tokens(); n != 4000 || src != llm.WindowFromConfig {
		t.Errorf("window = %d from %q, want the configured 4000", n, src)
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("a configured window asked the server %d questions", len(srv.Requests()))
	}
	if w.Learn(3000) {
		t.Error("a refusal replaced the configured window")
	}
}

func TestWindowIn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		refusal llmtest.Refusal
		want    int
	}{
		{"llama.cpp n_ctx", llmtest.RefuseLlama, 3000},
		{"OpenAI maximum context length", llmtest.RefuseOpenAI, 3000},
		{"no number", llmtest.RefuseBare, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.New(t)
			srv.SetWindow(3000, llmtest.AdvertNone, c.refusal)
			long := make([]byte, 20000)
			for i := range long {
				long[i] = 'a'
			}
			_, err := srv.Client("").Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: string(long)}}}, nil)
			if !llm.ContextExceeded(err) {
				t.Fatalf("err = %v, want a context-length refusal", err)
			}
			if got := llm.WindowIn(err); got != c.want {
				t.Errorf("WindowIn = %d, want %d (err %v)", got, c.want, err)
			}
			if len(srv.Refused()) != 1 {
				t.Errorf("refused = %v, want one", srv.Refused())
			}
			w := llm.NewWindow(0)
			if learnt := w.Learn(llm.WindowIn(err)); learnt != (c.want > 0) {
				t.Errorf("Learn = %v", learnt)
			}
		})
	}
	if llm.WindowIn(errors.New("maximum context length is 5 tokens")) != 0 {
		t.Error("an error that is no refusal gave a window")
	}
}

func TestFormatTokens(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{950: "950", 9800: "9.8k", 12000: "12k", 12288: "12k", 131072: "131k", 1000: "1k"} {
		if got := llm.FormatTokens(n); got != want {
			t.Errorf("FormatTokens(%d) = %q, want %q", n, got, want)
		}
	}
}
