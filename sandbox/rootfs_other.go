//go:build !linux

package sandbox

import (
	"context"
	"fmt"
	"io"
)

// importBase needs debootstrap, root and Linux mounts: elsewhere the base
// comes from the registry.
func (d *Docker) importBase(ctx context.Context, progress io.Writer) error {
	return fmt.Errorf("%w: not on Linux", errNoDebootstrap)
}
