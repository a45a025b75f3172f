; Kernel entry. The loader jumps here with interrupts off, its own page
; tables in CR3 (identity + direct map + kernel image) and %rdi = physical
; address of struct boot_info. We switch to the kernel's boot stack and
; call kmain(boot_info_phys); kmain never returns.
bits 64
default rel

section .text.entry
global _start
extern kmain
_start:
	cli
	cld
	lea rsp, [boot_stack_top]
	xor ebp, ebp		; a zero frame pointer ends every backtrace
	push rbp		; fake return address: keeps rsp 16-byte aligned
	call kmain
.halt:
	cli
	hlt
	jmp .halt

section .bss
align 4096
global boot_stack_guard, boot_stack_bottom, boot_stack_top
boot_stack_guard:
	resb 4096		; unmapped by paging.c: an overflow faults
boot_stack_bottom:
	resb 32768
boot_stack_top:
