package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
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
			got := KeyAction(tcell.NewEventKey(c.key, c.r, c.mod), c.approval)
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
