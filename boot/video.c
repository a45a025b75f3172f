/*
 * Framebuffer: keep the firmware's GOP mode when it is between 800x600 and
 * 1920x1080, otherwise switch to the largest mode that fits in 1920x1080.
 * BLT-only modes have no framebuffer and are never chosen; with no usable
 * mode the kernel gets BOOT_FB_NONE and uses the serial console only.
 */
#include "loader.h"

static EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;

static bool fits(const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *m)
{
	return m->PixelFormat != PixelBltOnly && m->HorizontalResolution <= 1920 &&
	       m->VerticalResolution <= 1080;
}

static bool acceptable(const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *m)
{
	return fits(m) && m->HorizontalResolution >= 800 && m->VerticalResolution >= 600;
}

/* Return: the largest mode that fits, or the current one if none does. */
static UINT32 best_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *m;
	UINT32 i, best = gop->Mode->Mode;
	UINT64 best_pixels = 0;
	UINTN size;

	for (i = 0; i < gop->Mode->MaxMode; i++) {
		if (gop->QueryMode(gop, i, &size, &m) != EFI_SUCCESS)
			continue;
		if (fits(m) &&
		    (UINT64)m->HorizontalResolution * m->VerticalResolution > best_pixels) {
			best = i;
			best_pixels = (UINT64)m->HorizontalResolution * m->VerticalResolution;
		}
		efi_bs->FreePool(m);
	}
	return best;
}

static void choose_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop)
{
	UINT32 mode;
	EFI_STATUS st;

	if (acceptable(gop->Mode->Info))
		return;
	mode = best_mode(gop);
	if (mode == gop->Mode->Mode)
		return;
	st = gop->SetMode(gop, mode);
	if (st != EFI_SUCCESS)
		loader_log("cannot set GOP mode %u (%s), keeping mode %u", mode, efi_strerror(st),
			   gop->Mode->Mode);
}

static void set_masks(struct boot_framebuffer *fb, UINT32 r, UINT32 g, UINT32 b, UINT32 x)
{
	fb->red_mask = r;
	fb->green_mask = g;
	fb->blue_mask = b;
	fb->reserved_mask = x;
}

static void describe(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop, struct boot_framebuffer *fb)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *m = gop->Mode->Info;

	fb->base = gop->Mode->FrameBufferBase;
	fb->size = gop->Mode->FrameBufferSize;
	fb->width = m->HorizontalResolution;
	fb->height = m->VerticalResolution;
	fb->pixels_per_scanline = m->PixelsPerScanLine;
	switch (m->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		fb->format = BOOT_FB_RGBX;
		set_masks(fb, 0xff, 0xff00, 0xff0000, 0xff000000);
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		fb->format = BOOT_FB_BGRX;
		set_masks(fb, 0xff0000, 0xff00, 0xff, 0xff000000);
		break;
	case PixelBitMask:
		fb->format = BOOT_FB_BITMASK;
		set_masks(fb, m->PixelInformation.RedMask, m->PixelInformation.GreenMask,
			  m->PixelInformation.BlueMask, m->PixelInformation.ReservedMask);
		break;
	default:
		fb->format = BOOT_FB_NONE;
	}
}

void setup_framebuffer(struct boot_framebuffer *fb)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;

	mem_zero(fb, sizeof(*fb));
	if (efi_bs->LocateProtocol(&gop_guid, NULL, (void **)&gop) != EFI_SUCCESS || !gop ||
	    !gop->Mode || !gop->Mode->Info) {
		loader_log("no graphics (GOP); the kernel will use serial only");
		return;
	}
	choose_mode(gop);
	describe(gop, fb);
	if (fb->format == BOOT_FB_NONE) {
		mem_zero(fb, sizeof(*fb));
		loader_log("GOP mode has no framebuffer (BLT only)");
		return;
	}
	loader_log("framebuffer %ux%u (stride %u) at 0x%lx", fb->width, fb->height,
		   fb->pixels_per_scanline, fb->base);
}
