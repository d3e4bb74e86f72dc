// SPDX-License-Identifier: GPL-3.0-or-later
// What an agent says about the host it runs on (docs/agent-protocol.md: welcome and
// inventory), and how it resolves a path before its --allow check: shared by
// ioprism-agent and the ranks of ioprism-mpi, which are agents on MPI's messages.
#pragma once

#include "core/agent/agent_messages.h"

#include <string>

namespace ioprism::platform {

// The welcome's host, OS and kernel, CPUs, engines and process id (the service adds its
// version and session).
core::WelcomeMessage agentIdentity();

// Every device and partition, with why it is not free (mounted, used by a holder, a
// partition in use); the mounted file systems with their space.
core::InventoryMessage agentInventory();

// The path with its symbolic links resolved (as far as it exists), so that a link inside
// an allowed root cannot lead a run outside it; the path as given when it cannot be.
std::string agentRealPath(const std::string &path);

} // namespace ioprism::platform
