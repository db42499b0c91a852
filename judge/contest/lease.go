package contest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Staged copies are shared by every judge process whose database sits in
// the same folder, and each process knows only its own database's bots. So
// each process writes the copies it stages in a lease file of its own under
// root/.leases, locked (flock) for as long as it lives: the kernel drops the
// lock when the process ends, even killed, and Prune keeps every copy named
// in a lease still locked. Times cannot say it: a tournament plays the copy
// it staged hours ago.
const (
	leaseDir  = ".leases"
	stageLock = ".lock" // shared while staging, exclusive while pruning
)

// leases holds this process's lease file per stage root and what it names.
var leases = struct {
	sync.Mutex
	byRoot map[string]*leaseFile
}{byRoot: map[string]*leaseFile{}}

type leaseFile struct {
	f    *os.File
	keys map[string]bool
}

// lease writes key in this process's lease of root, opening it on first use.
// The caller holds the stage lock, so that no Prune reads the leases between
// this and its use of the copy.
func lease(root, key string) error {
	leases.Lock()
	defer leases.Unlock()
	l := leases.byRoot[root]
	if l == nil {
		var err error
		if l, err = openLease(root); err != nil {
			return err
		}
		leases.byRoot[root] = l
	}
	if l.keys[key] {
		return nil
	}
	if _, err := l.f.WriteString(key + "\n"); err != nil {
		return fmt.Errorf("writing the lease of the staged bots: %w", err)
	}
	l.keys[key] = true
	return nil
}

// openLease creates this process's lease file under root and locks it. The
// file is never closed: its lock lasts as long as the process.
func openLease(root string) (*leaseFile, error) {
	dir := filepath.Join(root, leaseDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "*.lease")
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return &leaseFile{f: f, keys: map[string]bool{}}, nil
}

// leasedKeys reads the copies named in the leases of living processes, and
// removes the leases of processes that have ended. The caller holds the
// stage lock exclusively: no lease is being written.
func leasedKeys(root string) (map[string]bool, error) {
	dir := filepath.Join(root, leaseDir)
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	var errs []error
	for _, de := range des {
		if err := readLease(filepath.Join(dir, de.Name()), keys); err != nil {
			errs = append(errs, err)
		}
	}
	return keys, errors.Join(errs...)
}

// readLease adds the keys of the lease at path to keys when its process
// still holds it (this one included: a second open file conflicts with the
// first), or removes it.
func readLease(path string, keys map[string]bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return os.Remove(path) // its process has ended
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("reading the lease %s: %w", path, err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		keys[strings.TrimSpace(sc.Text())] = true
	}
	return sc.Err()
}

// lockStage locks root's stage lock, shared or exclusive, and returns the
// unlocking function. A root that does not exist gives fs.ErrNotExist.
func lockStage(root string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(filepath.Join(root, stageLock), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil // closing the file releases its lock
}
