package handin

import "golang.org/x/sys/unix"

// exchange swaps the entries at a and b in one step (renameat2's
// RENAME_EXCHANGE): a folder bot is replaced with no moment where the game
// folder holds no bot, or half of one. false when the file system cannot.
func exchange(a, b string) bool {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil
}
