// The messages sent in earlier sessions in a repository: the UI's input
// history reaches them after the session's own.

package sessions

import (
	"path/filepath"
	"strings"
)

// HistorySessions is how many of the latest sessions in a repository
// History reads.
const HistorySessions = 20

// History returns the user messages of the latest HistorySessions
// sessions started in repo (their repository), except the session named
// except, oldest first, at most limit of them (the newest). Sessions that
// cannot be read are skipped.
func (st Store) History(repo, except string, limit int) []string {
	list, err := st.List()
	if err != nil {
		return nil
	}
	var mine []Info
	for _, s := range list {
		if s.Repository == repo && s.Name != except {
			mine = append(mine, s)
		}
	}
	if len(mine) > HistorySessions {
		mine = mine[len(mine)-HistorySessions:]
	}
	var out []string
	for _, s := range mine { // least recently updated first
		userMessages(filepath.Join(st.Dir, s.Name, "library", "root.json"), func(content string) bool {
			if strings.TrimSpace(content) != "" {
				out = append(out, content)
			}
			return true
		})
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}
