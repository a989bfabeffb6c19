// The slash commands that send a prompt: /init and the prompt files.

package prompts

import "strings"

// Set is the slash commands of one repository that send a prompt as the
// person's message.
type Set struct {
	Prompts  []Prompt  // sorted by name
	Problems []Problem // the files that did not become commands
	// Init is /init's message (instructions.InitPrompt) and InitFile the
	// instruction file it asks for; Init "" leaves /init out.
	Init, InitFile string
}

// Command is one slash command of a Set as /help, the input's completion
// and ACP's available_commands list it.
type Command struct {
	Name        string // without its slash
	Args        string // the argument hint; "" when it takes none
	Description string
	Repository  bool   // a prompt file of the repository's
	Path        string // the prompt file; "" for /init
}

// Commands lists /init, then the prompt files by name.
func (s *Set) Commands() []Command {
	if s == nil {
		return nil
	}
	var out []Command
	if s.Init != "" {
		out = append(out, Command{Name: "init", Description: "have a subagent write " + s.InitFile + " for this repository, or improve it"})
	}
	for _, p := range s.Prompts {
		c := Command{Name: p.Name, Args: p.ArgumentHint, Description: p.Summary(), Repository: p.Repository, Path: p.Path}
		if c.Args == "" && p.takesArguments() {
			c.Args = "[arguments]"
		}
		out = append(out, c)
	}
	return out
}

// Split splits "/name rest" into name (without its slash) and the rest of
// the text; ok is false when text does not start with "/" and a name.
// The name ends at the first white space.
func Split(text string) (name, args string, ok bool) {
	rest, ok := strings.CutPrefix(text, "/")
	if !ok {
		return "", "", false
	}
	i := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if i < 0 {
		i = len(rest)
	}
	if i == 0 {
		return "", "", false
	}
	return rest[:i], rest[i:], true
}

// Find returns the prompt called name.
func (s *Set) Find(name string) (Prompt, bool) {
	if s != nil {
		for _, p := range s.Prompts {
			if p.Name == name {
				return p, true
			}
		}
	}
	return Prompt{}, false
}

// Resolve returns the message that text sends when it is "/init" or
// "/NAME arguments" for a prompt file; ok is false otherwise (text is
// then sent as it is, or is another command).
func (s *Set) Resolve(text string) (msg string, ok bool) {
	name, args, ok := Split(text)
	if !ok || s == nil {
		return "", false
	}
	if name == "init" && s.Init != "" {
		if a := strings.TrimSpace(args); a != "" {
			return s.Init + "\n\n" + a, true
		}
		return s.Init, true
	}
	p, ok := s.Find(name)
	if !ok {
		return "", false
	}
	return p.Expand(args), true
}
