// Slash commands: the list under the input and what each command does.

package ui

import (
	"context"
	"strings"

	"harness/rlm"
)

// command is one slash command; args is shown after its name in the list.
// prompt is a registered command's (Command.Prompt); built-in commands
// have none.
type command struct {
	name, args, help string
	prompt           func(arg string) (string, error)
}

// builtinCommands are the commands the UI runs itself (App.command).
// /init sends a fixed prompt (Options.Prompts); the prompt files' and the
// registered commands follow them in the list.
var builtinCommands = []command{
	{name: "/help", help: "the keys and the commands"},
	{name: "/rename", args: " <name>", help: "rename this session"},
	{name: "/tools", help: "show the tools of the agent on screen, and what you allowed for this session"},
	{name: "/init", help: "have a subagent write or improve the repository's AGENTS.md"},
	{name: "/compact", args: " [focus]", help: "summarise the earlier turns now, to make room in the model's context"},
	{name: "/context", help: "show what the next request holds: system, tools, each turn and summary with its tokens"},
	{name: "/new", help: "start a new, empty session"},
	{name: "/clear", help: "start a new, empty session"},
	{name: "/exit", help: "exit"},
	{name: "/quit", help: "exit"},
}

// Compacter is the part of a Backend /compact and /context need
// (*rlm.Runner has it); without it they say they are not available.
type Compacter interface {
	Compact(ctx context.Context, focus string) error
	ContextReport() string
}

// Command is a slash command the wiring adds beside the built-in ones and
// the prompt files' (Options.Commands): the command list and /help show it
// with its Args and Help.
type Command struct {
	Name string // "/review": a slash and a name without spaces
	Args string // shown after the name, " <text>"; "" for none
	Help string
	// Prompt returns the message to send for the text typed after the
	// name; an error is shown instead and nothing is sent.
	Prompt func(arg string) (string, error)
}

// CommandNames returns the built-in commands' names without their slash:
// no prompt file can take them (prompts.Load's reserved names).
func CommandNames() []string {
	out := make([]string, len(builtinCommands))
	for i, c := range builtinCommands {
		out[i] = strings.TrimPrefix(c.name, "/")
	}
	return out
}

// commandList is every command the list offers: the built-in ones (with
// /init's line from Options.Prompts), then the prompt files', a
// repository's marked as such, then the registered ones whose names are
// free.
func (a *App) commandList() []command {
	out := append([]command(nil), builtinCommands...)
	for _, c := range a.opts.Prompts.Commands() {
		if c.Name == "init" {
			if i := a.findCommand("/init", out); i != nil {
				i.help = c.Description
			}
			continue
		}
		help := c.Description
		if c.Repository {
			help += " (repository)"
		}
		args := ""
		if c.Args != "" {
			args = " " + c.Args
		}
		out = append(out, command{name: "/" + c.Name, args: args, help: help})
	}
	for _, c := range a.opts.Commands {
		if c.Prompt == nil || a.findCommand(c.Name, out) != nil {
			continue
		}
		out = append(out, command{name: c.Name, args: c.Args, help: c.Help, prompt: c.Prompt})
	}
	return out
}

// findCommand returns the command called name in list, or nil.
func (a *App) findCommand(name string, list []command) *command {
	for i := range list {
		if list[i].name == name {
			return &list[i]
		}
	}
	return nil
}

// matches returns the commands the list offers for the input: the input
// is "/" and part of a command name, and Esc has not closed the list.
func (a *App) matches() []command {
	t := a.in.text
	if a.cmdClosed || !strings.HasPrefix(t, "/") || strings.ContainsAny(t, " \n") {
		return nil
	}
	var out []command
	for _, c := range a.commandList() {
		if strings.HasPrefix(c.name, t) {
			out = append(out, c)
		}
	}
	return out
}

// runCommand runs the slash command text: one that sends a prompt (/init,
// a prompt file's) sends its message like a typed one (waiting in the
// input while a turn runs); a built-in one runs at once.
func (a *App) runCommand(text string) {
	if msg, ok := a.opts.Prompts.Resolve(text); ok {
		if a.running {
			a.edit(func() { a.in.set(text) })
			a.waiting = true
			return
		}
		a.edit(func() { a.in.set("") })
		a.send(msg)
		return
	}
	name, arg := splitCommand(text)
	a.edit(func() { a.in.set("") })
	a.command(name, arg)
}

// commandNames lists the commands for the message about an unknown one.
func (a *App) commandNames() string {
	var names []string
	for _, c := range a.commandList() {
		names = append(names, c.name+c.args)
	}
	return strings.Join(names, ", ")
}

// complete puts the chosen command in the input.
func (a *App) complete() {
	m := a.matches()
	if len(m) == 0 {
		return
	}
	c := m[min(a.cmdSel, len(m)-1)]
	text := c.name
	if c.args != "" {
		text += " "
	}
	a.edit(func() { a.in.set(text) })
	if c.args == "" {
		a.cmdClosed = false
	}
}

// splitCommand splits "/name arg" into its name and its trimmed argument.
func splitCommand(text string) (string, string) {
	name, arg, _ := strings.Cut(text, " ")
	name, rest, _ := strings.Cut(name, "\n")
	if rest != "" {
		arg = rest + " " + arg
	}
	return name, strings.TrimSpace(arg)
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// subagentToolsNote ends /tools at the root, whose agent only delegates:
// the tools people look for (the REPL, MCP servers') are the subagents'.
const subagentToolsNote = "Subagents get their own tools: repl, read_file, apply_patch, grep, list, rlm below max_depth, " +
	"and the tools of the [mcp.servers] that started, as mcp__<server>__<tool>. /tools lists them while a subagent is on screen."

// command runs a slash command. Its output and refusals are shown in the
// transcript of the agent on screen, never saved or sent.
func (a *App) command(name, arg string) {
	v := a.top()
	v.scroll = scroll{follow: true}
	switch name {
	case "/help":
		a.showHelp()
	case "/rename":
		a.rename(arg)
	case "/tools":
		text := toolsText(v.tools)
		if v == a.root {
			text += "\n\n" + subagentToolsNote
		}
		v.add(kInfo, "", text+"\n\n"+a.allowedText())
	case "/compact", "/context":
		c, ok := a.backend.(Compacter)
		switch {
		case !ok:
			v.add(kError, "", name+" is not available here.")
		case name == "/context":
			v.add(kInfo, "", c.ContextReport())
		case a.running:
			v.add(kError, "", "/compact waits until the turn ends.")
		default:
			a.start(func(ctx context.Context) {
				if err := c.Compact(ctx, arg); err != nil {
					a.post(func() { a.root.add(kError, "", "/compact: "+err.Error()) })
				}
			})
		}
	case "/new", "/clear":
		a.newSession(name)
	case "/exit", "/quit":
		a.quit()
	case "/init":
		v.add(kError, "", "/init is not available here.")
	default:
		list := a.commandList()
		if c := a.findCommand(name, list); c != nil && c.prompt != nil {
			a.runPrompt(c, arg)
			return
		}
		v.add(kError, "", "Unknown command "+name+". Commands: "+a.commandNames()+
			". /help shows them with the keys. To send a message that starts with /, begin it with a space.")
	}
}

// runPrompt sends the message a registered command makes of arg.
func (a *App) runPrompt(c *command, arg string) {
	v := a.top()
	if a.running {
		v.add(kError, "", "A turn is running; press Esc to stop it or wait for it to finish, then "+c.name+" again.")
		return
	}
	text, err := c.prompt(arg)
	if err != nil {
		v.add(kError, "", c.name+": "+err.Error())
		return
	}
	if isBlank(text) {
		v.add(kError, "", c.name+" made an empty message; nothing was sent.")
		return
	}
	a.send(text)
}

func (a *App) rename(name string) {
	v := a.top()
	if name == "" {
		v.add(kError, "", "/rename needs a name: /rename <name>")
		return
	}
	if a.backend.SubagentRunning() {
		v.add(kError, "", "Cannot rename the session while a subagent is running; try again when it has finished.")
		return
	}
	if err := a.backend.Rename(name); err != nil {
		v.add(kError, "", renameRefusal(err))
		return
	}
	a.session = a.backend.SessionName()
	a.ovDirty = true
	v.add(kInfo, "", "Session renamed to "+a.session+".")
}

// renameRefusal words a refused /rename. The session store's errors start
// with "cannot rename" already; others get that said in front.
func renameRefusal(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "cannot rename") {
		return "C" + msg[1:]
	}
	return "Cannot rename the session: " + msg
}

func (a *App) newSession(name string) {
	v := a.top()
	if a.running || a.backend.Running() {
		v.add(kError, "", "A turn is running; press Esc to stop it or wait for it to finish, then "+name+".")
		return
	}
	if a.opts.NewSession == nil {
		v.add(kError, "", "Starting a new session is not available here.")
		return
	}
	be, err := a.opts.NewSession()
	if err != nil {
		v.add(kError, "", "Cannot start a new session: "+err.Error())
		return
	}
	a.backend = be
	a.session = be.SessionName()
	a.stack, a.chosen = nil, nil
	a.root = a.newView(rlm.Agent{}, a.opts.System)
	a.review = nil
	a.root.reset(be.Conversation())
	a.root.tools = be.RootTools()
	a.counts = be.Local().TurnTokenCache
	a.ovDirty = true
}
