; The raw copies between the kernel and the lower half. Each instruction
; that touches a lower-half address has an entry in __ex_table: (that
; instruction, where to resume if its fault cannot be resolved), as
; Linux's _ASM_EXTABLE. A fault handle_mm_fault resolves simply retries
; the rep instruction where it stopped (rcx, rsi, rdi hold the progress);
; one it cannot resolve resumes at the fixup, which returns the bytes
; left, like Linux's copy_user_generic. Example: __copy_user(dst, src,
; 8192) with only the first page mapped-able faults at dst + 4096 and
; returns 4096. The C wrappers (fault.c) turn that into -EFAULT.
;
; SMAP (SDM vol. 3A 4.6): with CR4.SMAP, ring 0 may touch user pages only
; while EFLAGS.AC is set, so each copy opens that window with stac and
; closes it with clac, on the fixup path too (the fault returns with the
; copy's flags). stac/clac are #UD without SMAP: they run only once
; setup_smap (fault.c) has set smap_enabled.
bits 64
default rel

%include "arch/x86_64/calling.inc"

section .text

; unsigned long __copy_user(void *dst, const void *src, size_t len)
global __copy_user
__copy_user:
	mov rcx, rdx
	ASM_STAC
.copy:	rep movsb
	ASM_CLAC
	xor eax, eax
	ret
.copy_fault:
	ASM_CLAC
	mov rax, rcx
	ret

; unsigned long __fill_user(void *dst, int byte, size_t len)
global __fill_user
__fill_user:
	mov eax, esi
	mov rcx, rdx
	ASM_STAC
.fill:	rep stosb
	ASM_CLAC
	xor eax, eax
	ret
.fill_fault:
	ASM_CLAC
	mov rax, rcx
	ret

; long __smap_probe_read(const void *addr): one byte read the way kernel
; code outside the copies would, without stac. Return: the byte, or -1
; when the access faults (with SMAP on, any user page does). For tests.
global __smap_probe_read
__smap_probe_read:
	xor eax, eax
.load:	mov al, [rdi]
	ret
.load_fault:
	mov rax, -1
	ret

section __ex_table progbits alloc noexec nowrite align=8
	dq __copy_user.copy, __copy_user.copy_fault
	dq __fill_user.fill, __fill_user.fill_fault
	dq __smap_probe_read.load, __smap_probe_read.load_fault
