// Instruction files and prompt files for the repository harness works in.

package main

import (
	"harness/config"
	"harness/instructions"
	"harness/prompts"
	"harness/ui"
)

// instructionFinder finds the instruction files of repository dir (the
// canonical launch directory) as [chat] instruction_files and
// instructions_max_bytes say.
func instructionFinder(cfg *config.Config, dir string) *instructions.Finder {
	return instructions.New(instructions.Options{
		Home: cfg.Home, Names: cfg.Chat.InstructionFiles, MaxBytes: cfg.Chat.InstructionsMaxBytes,
	}, dir)
}

// initFile is the instruction file /init asks for: the first of [chat]
// instruction_files.
func initFile(cfg *config.Config) string {
	if len(cfg.Chat.InstructionFiles) > 0 {
		return cfg.Chat.InstructionFiles[0]
	}
	return "AGENTS.md"
}

// promptSet is /init and the prompt files of repository dir, which no
// built-in command's name can take (the UI's commands are the built-ins of
// every front end, so a prompt works the same everywhere).
func promptSet(cfg *config.Config, dir string) *prompts.Set {
	ps, problems := prompts.Load(cfg.Home, instructions.Top(dir), ui.CommandNames())
	name := initFile(cfg)
	return &prompts.Set{Prompts: ps, Problems: problems, Init: instructions.InitPrompt(name), InitFile: name}
}
