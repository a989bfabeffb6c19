package ui

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/llmtest"
	"harness/rlm"
)

// A stream as the issue measures it: one chunk of about 6 bytes every
// 2 ms, drawn at 60 frames a second, so about 8 chunks a frame.
const (
	shapeChunk     = 6
	chunksPerFrame = 8
)

// streamShape is a long reply of one shape: the events that set it up,
// then the chunks it streams in, as events.
type streamShape struct {
	name   string
	setup  []rlm.Event
	chunks []rlm.Event
}

// shapeAgent is the subagent whose apply_patch call streams.
var shapeAgent = rlm.Agent{Name: "writer", Depth: 1, ID: "call_rlm"}

// streamShapes are the four shapes of issue 22: 20,000 words in paragraphs
// of 60, the same words as one paragraph, a 4,000-line fenced Go block,
// and a subagent's apply_patch call adding a 4,000-line file, streamed as
// its arguments; and the paragraphs again as reasoning.
func streamShapes() []streamShape { return shapesOf(20000, 4000) }

// shapesOf are the four shapes with words words and lines lines.
func shapesOf(words, lines int) []streamShape {
	text := func(s string) []rlm.Event {
		var out []rlm.Event
		for _, c := range llmtest.Chunks(s, shapeChunk) {
			out = append(out, rlm.TextDelta{Text: c})
		}
		return out
	}
	args, _ := json.Marshal(map[string]string{"patch": llmtest.AddFilePatch("big.go", lines)})
	var patch []rlm.Event
	for _, c := range llmtest.Chunks(string(args), shapeChunk) {
		patch = append(patch, rlm.ToolArgsDelta{Agent: shapeAgent, ID: "call_patch", Text: c})
	}
	var reasoning []rlm.Event
	for _, c := range llmtest.Chunks(llmtest.Words(words, 60), shapeChunk) {
		reasoning = append(reasoning, rlm.ReasoningDelta{Text: c})
	}
	return []streamShape{
		{name: "paragraphs", chunks: text(llmtest.Words(words, 60))},
		{name: "reasoning", chunks: reasoning},
		{name: "paragraph", chunks: text(llmtest.Words(words, 0))},
		{name: "fence", chunks: text(llmtest.GoFence(lines))},
		{name: "patch", setup: []rlm.Event{
			rlm.AgentStart{Agent: shapeAgent, Task: "write big.go"},
			rlm.ToolCallStarted{Agent: shapeAgent, ID: "call_patch", Name: rlm.ApplyPatchTool},
		}, chunks: patch},
	}
}

// shapeApp is the App on a 200×50 simulation screen, its event loop not
// running: the benchmark handles the events and draws the frames itself.
func shapeApp(b testing.TB) (*App, tcell.SimulationScreen) {
	a, scr := benchApp(b, nil)
	scr.SetSize(200, 50)
	a.main.SetRect(0, 0, 200, 50)
	a.running = true
	return a, scr
}

// noShow is a screen whose Show does nothing.
type noShow struct{ tcell.Screen }

func (noShow) Show() {}

// playShape streams sh into a new App, drawing a frame every
// chunksPerFrame chunks, and returns the process's CPU time after each
// frame (cpu[0] is before the first).
func playShape(b testing.TB, sh streamShape) []time.Duration {
	a, sim := shapeApp(b)
	// Frames are drawn as tview draws them, on the App's frame screen,
	// which hands the screen only the cells that changed; the simulation
	// screen's own Show (a copy of every cell) is no terminal's cost.
	return playShapeOn(a, newFrameScreen(noShow{sim}), sh)
}

// playShapeOn is playShape on the App a drawing on scr.
func playShapeOn(a *App, scr *frameScreen, sh streamShape) []time.Duration {
	frame := func() {
		scr.Clear()
		a.main.Draw(scr)
		scr.Show()
	}
	for _, ev := range sh.setup {
		a.handle(ev)
	}
	frame()
	cpu := []time.Duration{cpuTime()}
	for i, ev := range sh.chunks {
		a.handle(ev)
		if i%chunksPerFrame == chunksPerFrame-1 || i == len(sh.chunks)-1 {
			frame()
			cpu = append(cpu, cpuTime())
		}
	}
	return cpu
}

// frameCost is the mean CPU of the frames in the 5 % of the stream that
// ends at fraction at of it.
func frameCost(cpu []time.Duration, at float64) time.Duration {
	frames := len(cpu) - 1
	hi := max(int(float64(frames)*at), 1)
	lo := max(hi-max(frames/20, 1), 0)
	return (cpu[hi] - cpu[lo]) / time.Duration(hi-lo)
}

// BenchmarkStreamShapes streams each shape of streamShapes into the App
// and reports the CPU per frame at 10 %, 50 % and 100 % of the stream
// (the mean of the 5 % of its frames before that point) and in all:
// flat figures mean a frame costs what changed, not the size of the
// block that streams.
func BenchmarkStreamShapes(b *testing.B) {
	benchShapes(b, func(b *testing.B, sh streamShape) ([]time.Duration, int64) {
		return playShape(b, sh), 0
	})
}

// benchShapes runs play for each shape, which streams it and returns the
// CPU after each frame and the bytes the frames wrote (0 when none are
// written), and reports the figures of BenchmarkStreamShapes, with the
// bytes a frame when there are any.
func benchShapes(b *testing.B, play func(*testing.B, streamShape) ([]time.Duration, int64)) {
	for _, sh := range streamShapes() {
		b.Run(sh.name, func(b *testing.B) {
			var at10, at50, at100, total time.Duration
			var frames int
			var bytes int64
			for b.Loop() {
				cpu, written := play(b, sh)
				at10 += frameCost(cpu, 0.1)
				at50 += frameCost(cpu, 0.5)
				at100 += frameCost(cpu, 1)
				total += cpu[len(cpu)-1] - cpu[0]
				frames += len(cpu) - 1
				bytes += written
			}
			n := time.Duration(b.N)
			us := func(d time.Duration) float64 { return float64(d/n) / float64(time.Microsecond) }
			b.ReportMetric(float64(frames/b.N), "frames")
			b.ReportMetric(us(at10), "µs/frame@10%")
			b.ReportMetric(us(at50), "µs/frame@50%")
			b.ReportMetric(us(at100), "µs/frame@100%")
			if bytes > 0 {
				b.ReportMetric(float64(bytes)/float64(frames), "B/frame")
			}
			b.ReportMetric(float64(total/n)/float64(time.Millisecond)/(float64(frames/b.N)/60), "cpu-ms/s")
		})
	}
}
