// Package sandbox confines processes with Landlock, the Linux security
// module through which an unprivileged process restricts itself and every
// process it later starts. harness uses it twice:
//
//   - A REPL worker restricts itself, after it has received its directories
//     (RestrictWorker): it may then open files only beneath the repository,
//     the store and the library (the library read-only), execute nothing,
//     and, from ABI 4, make no TCP connections; from ABI 6 it cannot reach
//     abstract Unix sockets (signals stay open: the null signal tells
//     whether the writer of a leftover temporary file still runs). This
//     is best effort: on a kernel without Landlock the worker runs on the
//     jail's path checks alone, and Describe says so.
//   - With [commands] sandbox = "workspace", every run() command starts
//     through a shim (Policy.Command): harness re-executed with the hidden
//     subcommand Subcommand, which restricts itself to Policy and then
//     executes the command, which inherits the restriction. The command may
//     read and execute everywhere, write only beneath Policy.Write (the
//     repository, the store, the system temp folder and [commands]
//     writable) and /dev/null, and make TCP connections only when
//     Policy.Network is set. This is strict: Policy.Check refuses, naming
//     the requirement, on a kernel that cannot enforce it.
//
// # What each Landlock ABI adds, and what harness relies on
//
//	ABI  Linux  adds                                   harness
//	1    5.13   file access rights                     worker: files
//	2    5.19   rename and link across directories     worker and workspace: moves inside a writable tree
//	3    6.2    truncate                               workspace: the minimum (writes cannot escape by truncate(2))
//	4    6.7    TCP bind and connect                   worker: no TCP; workspace: network = false needs it
//	5    6.10   ioctl on device files                  worker only
//	6    6.12   signal and abstract-socket scoping     worker: abstract sockets only; workspace: both
//	7+   6.15   audit logging flags                    not used
//
// Landlock does not cover everything: file metadata (chmod, utimes,
// setxattr work on files outside every writable folder; help() and the
// approval prompt say so), UDP (before ABI 10), Multipath TCP sockets and
// Unix sockets with a path stay open to a confined command, and reading is
// never restricted for commands. A denied operation fails with
// EACCES (EXDEV for a rename out of a writable tree), which the command
// reports itself.
package sandbox
