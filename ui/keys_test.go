package ui

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"harness/config"
	"harness/rlm"
	"harness/styled"
)

func TestKeyAction(t *testing.T) {
	cases := []struct {
		name     string
		key      tcell.Key
		r        rune
		mod      tcell.ModMask
		approval bool
		want     Action
	}{
		{"letter", tcell.KeyRune, 'a', 0, false, Action{Cmd: CmdInsert, Rune: 'a'}},
		{"y typed without approval", tcell.KeyRune, 'y', 0, false, Action{Cmd: CmdInsert, Rune: 'y'}},
		{"y allows", tcell.KeyRune, 'y', 0, true, Action{Cmd: CmdAllow}},
		{"Y allows", tcell.KeyRune, 'Y', 0, true, Action{Cmd: CmdAllow}},
		{"n denies", tcell.KeyRune, 'n', 0, true, Action{Cmd: CmdDeny}},
		{"other letter during approval", tcell.KeyRune, 'x', 0, true, Action{Cmd: CmdInsert, Rune: 'x'}},
		{"alt letter ignored", tcell.KeyRune, 'y', tcell.ModAlt, true, Action{}},
		{"Enter sends", tcell.KeyEnter, 0, 0, false, Action{Cmd: CmdSend}},
		{"Alt+Enter newline", tcell.KeyEnter, 0, tcell.ModAlt, false, Action{Cmd: CmdNewline}},
		{"Ctrl+J newline", tcell.KeyCtrlJ, 0, tcell.ModCtrl, false, Action{Cmd: CmdNewline}},
		{"Ctrl+K", tcell.KeyCtrlK, 0, tcell.ModCtrl, false, Action{Cmd: CmdKillEnd}},
		{"Ctrl+U", tcell.KeyCtrlU, 0, tcell.ModCtrl, false, Action{Cmd: CmdKillStart}},
		{"Backspace", tcell.KeyBackspace, 0, 0, false, Action{Cmd: CmdBackspace}},
		{"Backspace2", tcell.KeyBackspace2, 0, 0, false, Action{Cmd: CmdBackspace}},
		{"Delete", tcell.KeyDelete, 0, 0, false, Action{Cmd: CmdDelete}},
		{"Left", tcell.KeyLeft, 0, 0, false, Action{Cmd: CmdLeft}},
		{"Right", tcell.KeyRight, 0, 0, false, Action{Cmd: CmdRight}},
		{"Up", tcell.KeyUp, 0, 0, false, Action{Cmd: CmdUp}},
		{"Down", tcell.KeyDown, 0, 0, false, Action{Cmd: CmdDown}},
		{"Home", tcell.KeyHome, 0, 0, false, Action{Cmd: CmdHome}},
		{"Ctrl+E", tcell.KeyCtrlE, 0, tcell.ModCtrl, false, Action{Cmd: CmdEnd}},
		{"Tab", tcell.KeyTab, 0, 0, false, Action{Cmd: CmdTab}},
		{"Shift+Tab", tcell.KeyBacktab, 0, tcell.ModShift, false, Action{Cmd: CmdPermission}},
		{"Esc", tcell.KeyEscape, 0, 0, true, Action{Cmd: CmdEscape}},
		{"PageUp", tcell.KeyPgUp, 0, 0, false, Action{Cmd: CmdPageUp}},
		{"PageDown", tcell.KeyPgDn, 0, 0, false, Action{Cmd: CmdPageDown}},
		{"Ctrl+C", tcell.KeyCtrlC, 0, tcell.ModCtrl, false, Action{Cmd: CmdInterrupt}},
		{"F1 does nothing", tcell.KeyF1, 0, 0, false, Action{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := KeyAction(tcell.NewEventKey(c.key, c.r, c.mod), KeyState{Answering: c.approval})
			if got != c.want {
				t.Errorf("KeyAction = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestMouseAction(t *testing.T) {
	cases := []struct {
		name    string
		buttons tcell.ButtonMask
		held    bool
		want    Action
	}{
		{"wheel up", tcell.WheelUp, false, Action{Cmd: CmdWheelUp, X: 3, Y: 4}},
		{"wheel down", tcell.WheelDown, true, Action{Cmd: CmdWheelDown, X: 3, Y: 4}},
		{"press", tcell.Button1, false, Action{Cmd: CmdPress, X: 3, Y: 4}},
		{"drag", tcell.Button1, true, Action{Cmd: CmdDrag, X: 3, Y: 4}},
		{"release", tcell.ButtonNone, true, Action{Cmd: CmdRelease, X: 3, Y: 4}},
		{"move", tcell.ButtonNone, false, Action{}},
		{"right button", tcell.Button2, false, Action{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := MouseAction(tcell.NewEventMouse(3, 4, c.buttons, 0), c.held)
			if got != c.want {
				t.Errorf("MouseAction = %+v, want %+v", got, c.want)
			}
		})
	}
}

// keyName is how the key table writes the key of b.
func keyName(b keyBinding) string {
	switch b.key {
	case tcell.KeyRune:
		return strings.ToLower(string(b.r)) // the row names y for y and Y
	case tcell.KeyBacktab:
		return "Shift+Tab"
	case tcell.KeyPgUp:
		return "PageUp"
	case tcell.KeyPgDn:
		return "PageDown"
	case tcell.KeyEscape:
		return "Esc"
	case tcell.KeyBackspace2:
		return "Backspace"
	}
	name := tcell.KeyNames[b.key]
	name = strings.Replace(name, "Ctrl-", "Ctrl+", 1)
	switch b.mod {
	case tcell.ModAlt:
		name = "Alt+" + name
	case tcell.ModShift:
		name = "Shift+" + name
	}
	return name
}

// TestKeyTableListsEveryKey: every key KeyAction gives a command (every
// tcell key, with and without modifiers, in every state, and every
// printable ASCII character) is a binding of a row of the key table that
// names it; so /help, drawn from the table, lists every bound key.
func TestKeyTableListsEveryKey(t *testing.T) {
	rowOf := func(k tcell.Key, r rune, mod tcell.ModMask, st KeyState) (KeyRow, keyBinding, bool) {
		for _, row := range keyTable {
			for _, b := range row.binds {
				if b.matches(k, r, mod, st) {
					return row, b, true
				}
			}
		}
		return KeyRow{}, keyBinding{}, false
	}
	states := []KeyState{{}, {Answering: true}, {EmptyInput: true}, {Answering: true, EmptyInput: true}}
	mods := []tcell.ModMask{0, tcell.ModAlt, tcell.ModShift, tcell.ModCtrl}
	var keys []tcell.Key
	for k := range tcell.KeyNames {
		keys = append(keys, k)
	}
	keys = append(keys, tcell.KeyRune)
	bound := 0
	for _, k := range keys {
		runes := []rune{0}
		if k == tcell.KeyRune {
			runes = nil
			for r := rune(' '); r < 0x7f; r++ {
				runes = append(runes, r)
			}
		}
		for _, r := range runes {
			for _, mod := range mods {
				for _, st := range states {
					ev := tcell.NewEventKey(k, r, mod) // tcell makes Ctrl+a KeyCtrlA, Shift+Tab Backtab
					act := KeyAction(ev, st)
					if act.Cmd == CmdNone || act.Cmd == CmdInsert {
						continue
					}
					bound++
					row, b, ok := rowOf(ev.Key(), ev.Rune(), ev.Modifiers(), st)
					if !ok || b.cmd != act.Cmd {
						t.Errorf("key %v %q mod %v in %+v gives %v, which no row of the key table binds", k, r, mod, st, act.Cmd)
						continue
					}
					if name := keyName(b); !strings.Contains(row.Keys, name) {
						t.Errorf("the row %q binds %s but does not name it", row.Keys, name)
					}
				}
			}
		}
	}
	if bound < 40 {
		t.Errorf("only %d bound keys found", bound)
	}
	// And the help lists every row, with every command.
	a := newApp(Options{Theme: testTheme, Backend: &fakeBackend{events: rlm.NewStream()}, Events: rlm.NewStream(),
		Approvals: NewApprovals(), Level: NewLevel(config.PermReadOnly),
		Commands: []Command{{Name: "/review", Args: " <what>", Help: "review a change with the prompt file review.md", Prompt: func(s string) (string, error) { return s, nil }}}})
	help := styled.Copy(helpLines(a.commandList(), 200))
	for _, row := range keyTable {
		if !strings.Contains(help, row.Keys) || !strings.Contains(help, row.Action) {
			t.Errorf("the help lacks the row %q: %q", row.Keys, row.Action)
		}
	}
	for _, c := range append(builtinCommands, command{name: "/review", args: " <what>"}) {
		if !strings.Contains(help, c.name+c.args) {
			t.Errorf("the help lacks %s", c.name)
		}
	}
}

// TestREADMEKeyTable: the README's key table has exactly the rows of the
// key table, in its order.
func TestREADMEKeyTable(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := slices.Index(lines, "| key | action |")
	if start < 0 {
		t.Fatal("the README has no | key | action | table")
	}
	var got []string
	for _, l := range lines[start+2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		got = append(got, l)
	}
	var want []string
	for _, r := range keyTable {
		want = append(want, "| "+r.Keys+" | "+r.Action+" |")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the README's key table:\n%s\nthe UI's (KeyTable):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
