// Host services: what REPL functions need from harness itself (starting a
// command, the model's name, the helper files), by name, here or across
// the worker connection.

package repl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"harness/approval"
	"harness/config"
	"harness/failures"
	"harness/jail"
)

// A host service is an operation a REPL function asks of the host rather
// than doing it in the interpreter: the host owns approvals, commands,
// $HARNESS_HOME and the agent's state. In a REPL running in-process the
// function runs at once, with the call's state; in a worker, the request
// crosses to the parent (a wire Call frame naming the service), which runs
// the same function against its own Options and sends back the result, the
// error text and any failure notes it recorded. A REPL function added later
// that needs the host (an MCP call, say) registers a service here and calls
// hostCall; it then works the same in both places.
type hostService struct {
	local  func(in *interp, c *callState, req any) (any, error)
	remote func(in *interp, c *callState, req json.RawMessage) (json.RawMessage, error)
}

// service wraps a typed service function.
func service[Req, Resp any](f func(in *interp, c *callState, req Req) (Resp, error)) hostService {
	return hostService{
		local: func(in *interp, c *callState, req any) (any, error) { return f(in, c, req.(Req)) },
		remote: func(in *interp, c *callState, data json.RawMessage) (json.RawMessage, error) {
			var req Req
			if err := json.Unmarshal(data, &req); err != nil {
				return nil, fmt.Errorf("internal error: bad request: %v", err)
			}
			resp, err := f(in, c, req)
			if err != nil {
				return nil, err
			}
			return json.Marshal(resp)
		},
	}
}

// hostServices are the services by name.
var hostServices = map[string]hostService{
	"run":         service(serveRun),
	"fyi":         service(serveFYI),
	"home":        service(serveHome),
	"mcp_servers": service(serveMCPServers),
	"mcp_call":    service(serveMCPCall),
	"write_ask":   service(serveWriteAsk),
}

// hostLink carries host calls from a worker to its parent.
type hostLink interface {
	// call sends the request and waits for the reply: the result, the
	// notes the service recorded, or the service's error.
	call(service string, req json.RawMessage) (json.RawMessage, []failures.Note, error)
}

// hostCall runs the named host service for call c.
func hostCall[Req, Resp any](r *interp, c *callState, name string, req Req) (Resp, error) {
	var resp Resp
	if name == "run" || name == "mcp_call" {
		r.SyncFiles("") // a command or a tool may read what REPL code wrote
	}
	if r.opts.link == nil {
		out, err := hostServices[name].local(r, c, req)
		if err != nil {
			return resp, err
		}
		return out.(Resp), nil
	}
	data, err := json.Marshal(req)
	if err != nil {
		return resp, err
	}
	out, notes, err := r.opts.link.call(name, data)
	c.notes = append(c.notes, notes...)
	if err != nil {
		return resp, err
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return resp, fmt.Errorf("internal error: bad %s reply: %v", name, err)
	}
	return resp, nil
}

// writeAsk asks the host's Approver about a write the permission level
// refuses (Options.AskWrites).
type writeAsk struct {
	Op    string   `json:"op"`
	Paths []string `json:"paths"`
	Level string   `json:"level"`
}

// writeAnswer is the Approver's answer: allowed, or why not.
type writeAnswer struct {
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
}

// askWrite is the repository's jail.WriteAsk: it asks the host, here or
// across the worker connection.
func (r *interp) askWrite(op string, paths []string, lv config.Permission) error {
	c := callOf(r)
	ans, err := hostCall[writeAsk, writeAnswer](r, c, "write_ask", writeAsk{Op: op, Paths: paths, Level: lv.String()})
	switch {
	case err != nil:
		return err
	case !ans.Allowed && ans.Reason == "":
		return jail.ErrNotAsked
	case !ans.Allowed:
		return errors.New(ans.Reason)
	}
	return nil
}

func serveWriteAsk(in *interp, c *callState, req writeAsk) (writeAnswer, error) {
	op := approval.WriteOp("repl", req.Op, jail.Repository, req.Paths, req.Level)
	if in.opts.Approver == nil {
		return writeAnswer{}, nil // refused with the level's own reason
	}
	ok, err := in.opts.Approver.Approve(c.ctx, op)
	if ok && err == nil {
		return writeAnswer{Allowed: true}, nil
	}
	return writeAnswer{Reason: approval.WriteRefusal(err, c.ctx.Err() != nil, req.Level)}, nil
}

// fyiReply is what FYI() needs from the agent.
type fyiReply struct {
	Model     string `json:"model"`
	Tokens    int    `json:"tokens"`
	Estimated bool   `json:"estimated"`
	Window    int    `json:"window,omitempty"`
}

func serveFYI(in *interp, _ *callState, _ struct{}) (fyiReply, error) {
	out := fyiReply{Model: "unknown", Tokens: -1}
	if in.opts.Model != nil {
		out.Model = in.opts.Model()
	}
	if in.opts.PromptTokens != nil {
		out.Tokens, out.Estimated = in.opts.PromptTokens()
	}
	if in.opts.Window != nil {
		out.Window = in.opts.Window()
	}
	return out, nil
}

// homeRequest asks for one file of $HARNESS_HOME that the REPL may read
// (repl-notes.md or replib/NAME.star), or, with List, the helper files'
// names, or, with Replib, every helper file's name and text at once (one
// round trip for a worker loading its helpers).
type homeRequest struct {
	Name   string `json:"name,omitempty"`
	List   bool   `json:"list,omitempty"`
	Replib bool   `json:"replib,omitempty"`
}

type homeReply struct {
	Data  []byte     `json:"data,omitempty"`
	Names []string   `json:"names,omitempty"` // helper file names without ".star", sorted
	Files []homeFile `json:"files,omitempty"` // with Replib, in name order
	// Missing is set instead of an error for a file that does not exist.
	Missing bool `json:"missing,omitempty"`
}

// homeFile is one helper file: its text, or why it could not be read.
type homeFile struct {
	Name  string `json:"name"` // without ".star"
	Data  []byte `json:"data,omitempty"`
	Error string `json:"error,omitempty"`
}

// errMissing reports a home file that does not exist.
var errMissing = errors.New("not found")

// homeAllowed reports whether the REPL may read name of $HARNESS_HOME:
// never config.toml, .env, sessions or anything else.
func homeAllowed(name string) bool {
	if name == "repl-notes.md" {
		return true
	}
	file, ok := strings.CutPrefix(name, "replib/")
	return ok && strings.HasSuffix(file, ".star") && !strings.ContainsAny(file, `/\`) && !strings.HasPrefix(file, ".")
}

func serveHome(in *interp, c *callState, req homeRequest) (homeReply, error) {
	home := in.opts.Home
	if req.Replib {
		list, _ := serveHome(in, c, homeRequest{List: true})
		var out homeReply
		for _, name := range list.Names {
			f := homeFile{Name: name}
			rep, err := serveHome(in, c, homeRequest{Name: "replib/" + name + ".star"})
			switch {
			case err != nil:
				f.Error = err.Error()
			case rep.Missing:
				f.Error = errMissing.Error()
			default:
				f.Data = rep.Data
			}
			out.Files = append(out.Files, f)
		}
		return out, nil
	}
	if req.List {
		if home == "" {
			return homeReply{}, nil
		}
		matches, _ := filepath.Glob(filepath.Join(home, "replib", "*.star"))
		var names []string
		for _, m := range matches {
			names = append(names, strings.TrimSuffix(filepath.Base(m), ".star"))
		}
		sort.Strings(names)
		return homeReply{Names: names}, nil
	}
	if !homeAllowed(req.Name) {
		return homeReply{}, fmt.Errorf("%s is not a file the REPL may read", req.Name)
	}
	if home == "" {
		return homeReply{Missing: true}, nil
	}
	data, err := os.ReadFile(filepath.Join(home, filepath.FromSlash(req.Name)))
	if errors.Is(err, fs.ErrNotExist) {
		return homeReply{Missing: true}, nil
	}
	if err != nil {
		return homeReply{}, err
	}
	return homeReply{Data: data}, nil
}

// homeFile reads name ("repl-notes.md", "replib/x.star") of $HARNESS_HOME;
// errMissing when it does not exist.
func (r *interp) homeFile(name string) ([]byte, error) {
	rep, err := hostCall[homeRequest, homeReply](r, callOf(r), "home", homeRequest{Name: name})
	if err != nil {
		return nil, err
	}
	if rep.Missing {
		return nil, errMissing
	}
	return rep.Data, nil
}

// helperFileNames lists the helper files by name without ".star".
func (r *interp) helperFileNames() []string {
	rep, err := hostCall[homeRequest, homeReply](r, callOf(r), "home", homeRequest{List: true})
	if err != nil {
		return nil
	}
	return rep.Names
}

// helperFiles returns every helper file, in name order.
func (r *interp) helperFiles() []homeFile {
	rep, err := hostCall[homeRequest, homeReply](r, callOf(r), "home", homeRequest{Replib: true})
	if err != nil {
		return nil
	}
	return rep.Files
}
