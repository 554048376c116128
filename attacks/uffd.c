/*
 * uffd.c - the attacker's userfaultfd: user-mode faults only (what an
 * unprivileged process gets when vm.unprivileged_userfaultfd is 0), past
 * the API handshake, with the features the caller asks for.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int uffd_open(int flags, unsigned long long features)
{
	int fd = (int)syscall(SYS_userfaultfd,
			      O_CLOEXEC | UFFD_USER_MODE_ONLY | flags);
	struct uffdio_api api = { .api = UFFD_API, .features = features };

	if (fd >= 0 && ioctl(fd, UFFDIO_API, &api) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}
