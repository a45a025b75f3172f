; Trap entry stubs. Every vector pushes the same frame, struct trap_frame
; in <asm/trap.h>: the CPU's (ss, rsp, rflags, cs, rip), an error code (a
; zero for vectors without one, so the layout never varies), the vector
; number, then all general-purpose registers. trap_dispatch() gets a
; pointer to it; iretq resumes whatever the frame says. A trap from ring 3
; (the RPL of the saved CS is 3) swaps GS on the way in and out, so the
; kernel always runs with its per-CPU GS (Linux: the swapgs in
; error_entry and in the return to user mode).
bits 64
default rel
%include "arch/x86_64/calling.inc"

section .text
extern trap_dispatch

; Vectors that push an error code themselves (SDM vol. 3, table 6-1).
%define HAS_ERROR(v) (v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30)

%macro TRAP_STUB 1
trap_stub_%1:
%if !HAS_ERROR(%1)
	push 0
%endif
	push %1
	jmp trap_common
%endmacro

%assign v 0
%rep 256
	TRAP_STUB v
%assign v v+1
%endrep

trap_common:
	test byte [rsp + 24], 3	; saved CS, above the vector and error code
	jz .from_kernel
	swapgs
.from_kernel:
	PUSH_REGS
	cld
	; An interrupt in the middle of a user copy arrives with AC set; the
	; handler runs with SMAP enforced again, and iretq restores AC.
	ASM_CLAC
	mov rdi, rsp
	call trap_dispatch
	POP_REGS
	add rsp, 16		; vector and error code
	test byte [rsp + 8], 3	; saved CS
	jz .to_kernel
	swapgs
.to_kernel:
	iretq

section .rodata
global trap_stubs
align 8
trap_stubs:
%assign v 0
%rep 256
	dq trap_stub_ %+ v
%assign v v+1
%endrep
