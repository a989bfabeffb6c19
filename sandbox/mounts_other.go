//go:build !linux

package sandbox

import (
	"errors"
	"syscall"
)

func namespaces() bool { return false }

func nsAttr(attr *syscall.SysProcAttr) *syscall.SysProcAttr { return attr }

func readOnlyMounts([]string) error { return errors.New("no mount namespaces on this system") }
