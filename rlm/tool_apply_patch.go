// The apply_patch tool: edit files with a patch.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"

	"harness/jail"
)

// ApplyPatchTool is the name of the file-editing tool.
const ApplyPatchTool = "apply_patch"

//go:embed tool_apply_patch.md
var applyPatchDescription string

// apply_patch never offers the library, which is read-only.
func applyPatchTool(roots []string) tool {
	var writable []string
	for _, r := range roots {
		if r != jail.Library {
			writable = append(writable, r)
		}
	}
	return tool{
		name:        ApplyPatchTool,
		description: applyPatchDescription,
		params: withRoot([]param{
			{name: "patch", typ: "string", required: true, desc: "The patch text, from *** Begin Patch to *** End Patch."},
		}, writable),
		run: func(ctx context.Context, a *agent, args map[string]json.RawMessage) (string, Status) {
			root, err := a.root(str(args, "root"))
			if err != nil {
				return err.Error(), Failed
			}
			out, err := a.r.opts.Files.ApplyPatch(ctx, root, str(args, "patch"), a.r.limit())
			return result(out, err)
		},
	}
}
