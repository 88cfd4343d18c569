package deform

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// reducedFormat names the reduced StVK precomputation's layout; it is hashed into every digest,
// so a change of layout misses every older cache file.
const reducedFormat = "stagger/deform reduced StVK v1"

// reducedDigest returns the SHA-256 of what a reduced StVK model depends on: the mesh's vertices
// and tetrahedra, the material and the basis, as little-endian bits.
func reducedDigest(m *TetMesh, mat Material, basis [][]float64) [32]byte {
	h := sha256.New()
	var buf [8]byte
	putU := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	putF := func(x float64) { putU(math.Float64bits(x)) }
	h.Write([]byte(reducedFormat))
	putU(uint64(m.NumVertices()))
	for _, v := range m.vertices {
		putF(v[0])
		putF(v[1])
		putF(v[2])
	}
	putU(uint64(m.NumTets()))
	for _, t := range m.tets {
		for _, a := range t {
			putU(uint64(a))
		}
	}
	putF(mat.Young)
	putF(mat.Poisson)
	putF(mat.Density)
	putU(uint64(len(basis)))
	for _, v := range basis {
		for _, x := range v {
			putF(x)
		}
	}
	var d [32]byte
	h.Sum(d[:0])
	return d
}

// cacheMagic opens every cache file.
const cacheMagic = "STGRSTVK"

// cacheHeader is the size of a cache file's header: the magic, the 32-byte input digest and r.
const cacheHeader = len(cacheMagic) + 32 + 8

// CacheFile returns the name of the cache file of the reduced model of m, mat and basis in dir:
// the hexadecimal SHA-256 of the inputs (mesh vertices and tetrahedra, material, basis, layout
// version) with the extension .stvk.
func CacheFile(dir string, m *TetMesh, mat Material, basis [][]float64) string {
	d := reducedDigest(m, mat, basis)
	return filepath.Join(dir, hex.EncodeToString(d[:])+".stvk")
}

// DefaultCacheDir returns os.UserCacheDir()/stagger, where CachedReducedStVK keeps its files
// when given no directory.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("deform: no user cache directory: %v", err)
	}
	return filepath.Join(d, "stagger"), nil
}

// Save writes the model to path: the header, P, Q and R as little-endian float64 bits, and a
// SHA-256 of everything before it, so that a truncated or altered file is detected. It writes
// a temporary file beside path and renames it, so a reader never sees a partial file.
func (rs *ReducedStVK) Save(path string) error {
	var buf bytes.Buffer
	buf.WriteString(cacheMagic)
	buf.Write(rs.digest[:])
	var b8 [8]byte
	binary.LittleEndian.PutUint64(b8[:], uint64(rs.r))
	buf.Write(b8[:])
	for _, block := range [][]float64{rs.p, rs.qm, rs.rw} {
		for _, x := range block {
			binary.LittleEndian.PutUint64(b8[:], math.Float64bits(x))
			buf.Write(b8[:])
		}
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("deform: ReducedStVK.Save: %v", err)
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("deform: ReducedStVK.Save: %v", werr)
	}
	return nil
}

// LoadReducedStVK reads the reduced model of m, mat and basis saved at path. It refuses a file that
// is not a cache file, is truncated or altered (its checksum does not match), or was computed
// for other inputs (its digest is not that of m, mat and basis), saying which.
func LoadReducedStVK(path string, m *TetMesh, mat Material, basis [][]float64) (*ReducedStVK, error) {
	if m == nil {
		return nil, fmt.Errorf("deform: LoadReducedStVK: needs a mesh")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("deform: LoadReducedStVK: %w", err)
	}
	if len(data) < cacheHeader+sha256.Size || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, fmt.Errorf("deform: LoadReducedStVK %s: not a reduced StVK cache file", path)
	}
	body := data[:len(data)-sha256.Size]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[len(body):]) {
		return nil, fmt.Errorf("deform: LoadReducedStVK %s: corrupted (checksum mismatch)", path)
	}
	want := reducedDigest(m, mat, basis)
	if !bytes.Equal(body[len(cacheMagic):len(cacheMagic)+32], want[:]) {
		return nil, fmt.Errorf("deform: LoadReducedStVK %s: computed for another mesh, material or basis", path)
	}
	r := int(binary.LittleEndian.Uint64(body[len(cacheMagic)+32:]))
	if r != len(basis) || r < 1 || r > MaxReducedBasis {
		return nil, fmt.Errorf("deform: LoadReducedStVK %s: basis size %d, want %d", path, r, len(basis))
	}
	rs := newReducedStVK(r)
	rs.digest = want
	payload := body[cacheHeader:]
	if len(payload) != 8*(len(rs.p)+len(rs.qm)+len(rs.rw)) {
		return nil, fmt.Errorf("deform: LoadReducedStVK %s: %d bytes of coefficients, want %d", path, len(payload), 8*(len(rs.p)+len(rs.qm)+len(rs.rw)))
	}
	for _, block := range [][]float64{rs.p, rs.qm, rs.rw} {
		for i := range block {
			x := math.Float64frombits(binary.LittleEndian.Uint64(payload))
			if !finite(x) {
				return nil, fmt.Errorf("deform: LoadReducedStVK %s: a coefficient is not finite", path)
			}
			block[i] = x
			payload = payload[8:]
		}
	}
	return rs, nil
}

// CachedReducedStVK returns the reduced model of m, mat and basis from the cache directory dir
// (DefaultCacheDir when empty), computing it with NewReducedStVK (reporting to progress) and
// saving it there when it is missing. A file that LoadReducedStVK refuses — corrupted, or
// another model's under the same name — is not used: the model is recomputed and the file
// replaced. hit reports whether the cache served the model. Failing to write the cache is an
// error; the model is returned with it.
func CachedReducedStVK(m *TetMesh, mat Material, basis [][]float64, dir string, progress func(done, total int)) (rs *ReducedStVK, hit bool, err error) {
	if m == nil {
		return nil, false, fmt.Errorf("deform: CachedReducedStVK: needs a mesh")
	}
	if err := mat.Validate(); err != nil {
		return nil, false, err
	}
	if dir == "" {
		if dir, err = DefaultCacheDir(); err != nil {
			return nil, false, err
		}
	}
	path := CacheFile(dir, m, mat, basis)
	if rs, err := LoadReducedStVK(path, m, mat, basis); err == nil {
		return rs, true, nil
	}
	if rs, err = NewReducedStVK(m, mat, basis, progress); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return rs, false, fmt.Errorf("deform: CachedReducedStVK: %v", err)
	}
	return rs, false, rs.Save(path)
}
