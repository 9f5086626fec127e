/* without_landlock COMMAND [ARG...]
 *
 * Runs COMMAND as on a kernel without Landlock: a seccomp filter makes landlock_create_ruleset
 * fail with ENOSYS, which is how a kernel built without Landlock answers, so the worker's
 * question for the ABI gets 0 and no ruleset can be made. Every other system call passes.
 * The filter needs no privilege (no_new_privs is set first) and holds for COMMAND and its
 * children, so the tests run the real binary on a machine whose kernel has Landlock as it
 * runs where none is. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "without_landlock knows the audit architecture of x86_64 and aarch64 only"
#endif

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s COMMAND [ARG...]\n", argv[0]);
    return 2;
  }
  /* A call of another architecture's table (x86_64's x32 or i386 entries) passes untouched:
   * the binaries under test make native calls only. */
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {.len = sizeof filter / sizeof filter[0], .filter = filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    fprintf(stderr, "without_landlock: no_new_privs: %s\n", strerror(errno));
    return 1;
  }
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
    fprintf(stderr, "without_landlock: seccomp: %s\n", strerror(errno));
    return 1;
  }
  execvp(argv[1], argv + 1);
  fprintf(stderr, "without_landlock: %s: %s\n", argv[1], strerror(errno));
  return 127;
}
