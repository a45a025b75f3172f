; The ways between ring 0 and ring 3 (Linux: arch/x86/entry/entry_64.S).
;
; syscall_entry is LSTAR's target. SYSCALL left the user rip in rcx, the
; user rflags in r11, CS/SS from STAR, IF/TF/DF/AC/NT cleared by FMASK, and
; rsp untouched: swapgs reaches the per-CPU area, which holds a scratch
; slot for the user rsp and the task's kernel stack. The entry then pushes
; a struct trap_frame (<asm/trap.h>, Linux's pt_regs) exactly as a trap
; from ring 3 would, vector -1, and calls do_syscall_64(regs), which puts
; the result in regs->rax and delivers signals (exit_to_user_mode). SYSRET
; returns only to a canonical rip (an Intel CPU would raise #GP in ring 0
; with the user's rsp otherwise) and only when rcx and r11 still hold rip
; and rflags; anything else (a signal handler's frame, rt_sigreturn's
; restored registers) leaves through iretq.
;
; user_mode_enter/user_mode_return are a setjmp/longjmp pair around a
; program's life: enter saves the caller's callee-saved registers, rsp
; and rflags in a struct thread_struct and iretq's to ring 3; return, called
; on the task's kernel stack when the program ends, restores them so that
; user_mode_enter returns the exit status to its caller.
bits 64
default rel
%include "arch/x86_64/calling.inc"

%define USER_DS (0x20 | 3)
%define USER_CS (0x28 | 3)
%define PERCPU_KERNEL_STACK 8	; struct percpu in x86.h
%define PERCPU_USER_RSP 16
%define FRAME_R11 (4 * 8)	; offsetof(struct trap_frame, r11)
%define FRAME_RCX (12 * 8)	; offsetof(struct trap_frame, rcx)
%define FRAME_RIP (17 * 8)	; offsetof(struct trap_frame, rip)
%define FRAME_RFLAGS (19 * 8)	; offsetof(struct trap_frame, rflags)
%define X86_EFLAGS_TF 0x100
%define X86_EFLAGS_IF 0x200
%define X86_EFLAGS_RF 0x10000

; struct thread_struct (asm/processor.h): its first eight fields
%define CTX_RBX 0
%define CTX_RBP 8
%define CTX_R12 16
%define CTX_R13 24
%define CTX_R14 32
%define CTX_R15 40
%define CTX_RSP 48
%define CTX_RFLAGS 56

section .text
extern do_syscall_64

global syscall_entry
syscall_entry:
	swapgs
	mov [gs:PERCPU_USER_RSP], rsp
	mov rsp, [gs:PERCPU_KERNEL_STACK]
	push USER_DS			; ss
	push qword [gs:PERCPU_USER_RSP]	; rsp
	push r11			; rflags
	push USER_CS			; cs
	push rcx			; rip
	push 0				; error code
	push -1				; vector: a system call, not a trap
	PUSH_REGS
	mov rdi, rsp
	call do_syscall_64

	; SYSRET loads rip from rcx and rflags from r11: it can return only
	; to the frame a plain system call left (Linux:
	; syscall_exit_to_user_mode's SYSRET checks). A signal frame or an
	; rt_sigreturn puts other values there and goes out by iretq, as
	; does a non-canonical rip (bits 63..47 not all equal) or RF/TF.
	mov rcx, [rsp + FRAME_RIP]
	cmp rcx, [rsp + FRAME_RCX]
	jne .iret
	mov r11, [rsp + FRAME_RFLAGS]
	cmp r11, [rsp + FRAME_R11]
	jne .iret
	test r11, X86_EFLAGS_RF | X86_EFLAGS_TF
	jnz .iret
	mov r11, rcx
	shl r11, 16
	sar r11, 16
	cmp r11, rcx
	jne .iret
	POP_REGS
	add rsp, 16			; vector and error code
	mov rcx, [rsp]			; rip
	mov r11, [rsp + 16]		; rflags
	mov rsp, [rsp + 24]		; the user's rsp: no stack from here on
	swapgs
	o64 sysret
.iret:
	POP_REGS
	add rsp, 16
	swapgs
	iretq

; long user_mode_enter(struct thread_struct *ctx, uint64_t rip, uint64_t rsp)
; Linux: start_thread + the iretq of the return to user mode.
global user_mode_enter
user_mode_enter:
	mov [rdi + CTX_RBX], rbx
	mov [rdi + CTX_RBP], rbp
	mov [rdi + CTX_R12], r12
	mov [rdi + CTX_R13], r13
	mov [rdi + CTX_R14], r14
	mov [rdi + CTX_R15], r15
	mov [rdi + CTX_RSP], rsp	; pointing at our return address
	pushfq
	pop qword [rdi + CTX_RFLAGS]
	; No interrupt between the swapgs and the iretq: it would run the
	; kernel with the user's GS.
	cli
	push USER_DS
	push rdx
	push X86_EFLAGS_IF
	push USER_CS
	push rsi
	; The program starts with every register zero but rsp (the ELF ABI
	; leaves them unspecified; Linux clears them), so nothing leaks.
	xor eax, eax
	xor ebx, ebx
	xor ecx, ecx
	xor edx, edx
	xor esi, esi
	xor edi, edi
	xor ebp, ebp
	xor r8d, r8d
	xor r9d, r9d
	xor r10d, r10d
	xor r11d, r11d
	xor r12d, r12d
	xor r13d, r13d
	xor r14d, r14d
	xor r15d, r15d
	swapgs
	iretq

; void user_mode_return(struct thread_struct *ctx, long status)
; Context: ring 0 on the task's kernel stack, kernel GS: whatever is on
; that stack (the syscall or trap frame) is abandoned.
global user_mode_return
user_mode_return:
	mov rsp, [rdi + CTX_RSP]
	mov rbx, [rdi + CTX_RBX]
	mov rbp, [rdi + CTX_RBP]
	mov r12, [rdi + CTX_R12]
	mov r13, [rdi + CTX_R13]
	mov r14, [rdi + CTX_R14]
	mov r15, [rdi + CTX_R15]
	push qword [rdi + CTX_RFLAGS]
	popfq
	mov rax, rsi
	ret
