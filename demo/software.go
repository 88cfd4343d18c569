package main

import "strings"

// softwareRenderers are substrings of the OpenGL RENDERER strings of renderers that draw on the
// CPU: Mesa's llvmpipe and softpipe, its classic swrast, and SwiftShader (Chromium's, through
// ANGLE).
var softwareRenderers = []string{"llvmpipe", "softpipe", "software rasterizer", "swiftshader"}

// softwareRenderer reports whether the OpenGL renderer named name draws on the CPU, where every
// fragment and every sample costs CPU time shared with the physics.
func softwareRenderer(name string) bool {
	name = strings.ToLower(name)
	for _, s := range softwareRenderers {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}
