; The raw copies between the kernel and the lower half. Each instruction
; that touches a lower-half address has an entry in __ex_table: (that
; instruction, where to resume if its fault cannot be resolved), as
; Linux's _ASM_EXTABLE. A fault handle_mm_fault resolves simply retries
; the rep instruction where it stopped (rcx, rsi, rdi hold the progress);
; one it cannot resolve resumes at the fixup, which returns the bytes
; left, like Linux's copy_user_generic. Example: __copy_user(dst, src,
; 8192) with only the first page mapped-able faults at dst + 4096 and
; returns 4096. The C wrappers (fault.c) turn that into -EFAULT.
bits 64
default rel

section .text

; unsigned long __copy_user(void *dst, const void *src, size_t len)
global __copy_user
__copy_user:
	mov rcx, rdx
.copy:	rep movsb
	xor eax, eax
	ret
.copy_fault:
	mov rax, rcx
	ret

; unsigned long __fill_user(void *dst, int byte, size_t len)
global __fill_user
__fill_user:
	mov eax, esi
	mov rcx, rdx
.fill:	rep stosb
	xor eax, eax
	ret
.fill_fault:
	mov rax, rcx
	ret

section __ex_table progbits alloc noexec nowrite align=8
	dq __copy_user.copy, __copy_user.copy_fault
	dq __fill_user.fill, __fill_user.fill_fault
