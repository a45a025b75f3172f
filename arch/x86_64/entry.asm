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

; call_on_stack(top, fn): call fn() with rsp = top (16-byte aligned) and
; come back on the caller's stack (Linux: call_on_stack in
; asm/irq_stack.h). rbp keeps the caller's frame, so a backtrace from fn
; walks on into the old stack.
section .text
global call_on_stack
call_on_stack:
	push rbp
	mov rbp, rsp
	mov rsp, rdi
	call rsi
	mov rsp, rbp
	pop rbp
	ret

section .bss
align 4096
global boot_stack_guard, boot_stack_bottom, boot_stack_top
boot_stack_guard:
	resb 4096		; unmapped by paging.c: an overflow faults
boot_stack_bottom:
	resb 32768
boot_stack_top:
