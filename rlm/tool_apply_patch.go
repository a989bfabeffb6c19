// The apply_patch tool: edit files with a patch.

package rlm

import (
	"context"
	_ "embed"
	"encoding/json"

	"harness/approval"
	"harness/jail"
	"harness/patch"
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
			text := str(args, "patch")
			root, refused := a.askPatch(ctx, root, text)
			if refused != "" {
				return "apply_patch cannot write here: " + refused + ". Nothing was changed.", Failed
			}
			// Read and written under the locks of its files: a hunk whose
			// context a sibling changed meanwhile fails to match.
			unlock := a.r.files.lock(patchKeys(root.Name(), text))
			defer unlock()
			out, err := a.r.opts.Files.ApplyPatch(ctx, root, text, a.r.limit())
			return result(out, err)
		},
	}
}

// askPatch puts a patch to the repository that the permission level
// refuses to the Approver first (Options.AskWrites): allowed, it returns
// a root that may write for this call; refused, why. A patch that does
// not parse is not asked about: applying it reports what is wrong.
func (a *agent) askPatch(ctx context.Context, root *jail.Root, text string) (*jail.Root, string) {
	lv := root.Level()
	if !a.r.opts.AskWrites || root.Name() != jail.Repository || lv.CanWrite() {
		return root, ""
	}
	p, err := patch.Parse(text)
	if err != nil {
		return root, ""
	}
	var paths []string
	for _, op := range p.Ops {
		paths = append(paths, op.Path)
		if op.MoveTo != "" {
			paths = append(paths, op.MoveTo)
		}
	}
	ok, err := approvals{a}.Approve(ctx, approval.WriteOp(ApplyPatchTool, "write", jail.Repository, paths, lv.String()))
	if ok && err == nil {
		return root.Granted(), ""
	}
	return root, approval.WriteRefusal(err, ctx.Err() != nil, lv.String())
}
