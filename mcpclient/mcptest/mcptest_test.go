// Tests of mcptest: .ci/run and the package agree on the version.

package mcptest

import (
	"os"
	"strings"
	"testing"
)

// TestCIInstallsThisVersion checks that .ci/run installs EverythingVersion.
func TestCIInstallsThisVersion(t *testing.T) {
	data, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "everything_version="+EverythingVersion+"\n") {
		t.Errorf(".ci/run does not install server-everything@%s; keep the two versions equal", EverythingVersion)
	}
}
