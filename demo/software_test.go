package main

import "testing"

// TestSoftwareRenderer: the RENDERER strings of Mesa's and Chromium's CPU renderers are software,
// a GPU's are not.
func TestSoftwareRenderer(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"llvmpipe (LLVM 15.0.6, 256 bits)", true},
		{"softpipe", true},
		{"Software Rasterizer", true},
		{"ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)", true},
		{"NVIDIA GeForce RTX 3060/PCIe/SSE2", false},
		{"Mesa Intel(R) UHD Graphics 620 (KBL GT2)", false},
		{"AMD Radeon RX 6800 (navi21, LLVM 15.0.6, DRM 3.49, 6.1.0)", false},
	} {
		if got := softwareRenderer(c.name); got != c.want {
			t.Errorf("softwareRenderer(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
