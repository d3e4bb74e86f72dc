// SPDX-License-Identifier: GPL-3.0-or-later
// localAgentRuns apart from the service: the service itself does not need the run (its
// fuzz target links it without core::Run, workers and engines).
#include "core/agent/agent_service.h"

namespace ioprism::core {

AgentRunMaker localAgentRuns(LocalRunHooks hooks)
{
    return [hooks = std::move(hooks)](RunSink &sink, StepGate gate,
               StepAmountDone amountDone) -> std::unique_ptr<RunSession> {
        LocalRunHooks gated = hooks;
        gated.describe.stepGate = std::move(gate);
        gated.describe.amountDone = std::move(amountDone);
        return std::make_unique<LocalRunSession>(std::move(gated), sink);
    };
}

} // namespace ioprism::core
