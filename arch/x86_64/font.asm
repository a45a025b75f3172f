; The console font, linked into the kernel: build/font.psf is Debian's
; Uni2-Fixed16.psf.gz (console-setup-linux) decompressed at build time, so
; no font data lives in the tree. kernel/fbcon_boot.c parses it at boot.
section .rodata
global font_psf_start
global font_psf_end
font_psf_start:
	incbin "font.psf"
font_psf_end:
