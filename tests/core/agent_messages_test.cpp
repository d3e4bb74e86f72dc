// SPDX-License-Identifier: GPL-3.0-or-later
// The agent protocol's pieces that need no run: the control messages' text, the clock
// offset estimate, the token comparison, the allow list and the in-memory channel pair.
#include "core/agent/agent_messages.h"
#include "core/agent/clock_sync.h"
#include "core/agent/constant_time.h"
#include "core/agent/message_channel.h"
#include "core/agent/target_roots.h"
#include "core/run/session_codec.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <mutex>
#include <string>
#include <vector>

#include "tests/support/test_profiles.h"

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

std::vector<ToAgent> everyMessageToAgent()
{
    return {HelloMessage {"0.1.0", kSessionProtocolVersion, "s3cret", "ctl-host"},
        ClockRequest {7, -123456789}, InventoryRequest {}, GoMessage {3, 987654321012, false},
        GoMessage {4, 0, true}, StopMessage {}, StopNowMessage {}, ByeMessage {},
        EndStepMessage {5}};
}

std::vector<FromAgent> everyMessageFromAgent()
{
    InventoryMessage inventory;
    inventory.devices.push_back({"/dev/nvme0n1", "Samsung 980", 1000204886016, ""});
    inventory.devices.push_back({"/dev/sda", "QEMU HARDDISK", 1u << 30, "mounted at /"});
    inventory.mounts.push_back({"/", "ext4", 1 << 20, 1 << 30});
    inventory.roots = {"/data", "/dev/nvme0n1"};
    return {WelcomeMessage {"0.1.0", kSessionProtocolVersion, "db2", "Linux 6.1.0", 16,
                {"io_uring", "sync", "null"}, 4242},
        RefusedMessage {"authentication failed: wrong token"}, ClockReply {7, -5, 1234567890123},
        inventory, ReadyMessage {2},
        BusyMessage {"192.0.2.7:50122 (ctl)", 1795000000000, "the agent is running another run"},
        ErrorMessage {"go for step 9, but no step is waiting: ignored"}, AmountDoneMessage {5}};
}

TEST(AgentMessages, EveryMessageDecodesToTheMessageEncoded)
{
    for (const auto &m : everyMessageToAgent()) {
        const std::string text = encodeAgentMessage(m);
        EXPECT_EQ(text.rfind("{\"agent\":1,", 0), 0u) << text;
        const auto back = decodeToAgent(text);
        ASSERT_TRUE(back.value) << back.error << " in " << text;
        EXPECT_TRUE(*back.value == m) << text;
        EXPECT_FALSE(back.session);
    }
    for (const auto &m : everyMessageFromAgent()) {
        const std::string text = encodeAgentMessage(m);
        const auto back = decodeFromAgent(text);
        ASSERT_TRUE(back.value) << back.error << " in " << text;
        EXPECT_TRUE(*back.value == m) << text;
    }
    // The fuzzer's seeds (tests/fuzz/agent_seeds) are written from here: one file per
    // message type and direction.
    if (const char *dir = std::getenv("IOPRISM_AGENT_SEEDS")) {
        for (const auto &m : everyMessageToAgent()) {
            std::string type(agentMessageType(m));
            if (type == "inventory?")
                type = "inventory-request";
            std::ofstream(std::string(dir) + "/to-agent-" + type + ".json")
                << encodeAgentMessage(m);
        }
        for (const auto &m : everyMessageFromAgent())
            std::ofstream(
                std::string(dir) + "/from-agent-" + std::string(agentMessageType(m)) + ".json")
                << encodeAgentMessage(m);
        // The run request, a session message the agent reads after the hello (its
        // targets under the fuzzer's allowed root).
        RunRequest request;
        request.profile = ioprism::test::twoWorkerProfile("agent fuzz", 50ms, 1, 1);
        for (auto &w : request.profile.hosts[0].workers)
            for (auto &t : w.targets)
                t.path = "/fuzz/" + t.path;
        request.engine = EngineKind::Null;
        request.settings.ioLimitPerTarget = 10;
        std::ofstream(std::string(dir) + "/to-agent-session-request.json")
            << encodeRequest(request);
    }
}

TEST(AgentMessages, ASessionMessageIsToldApartByItsKeyAndLeftToTheSessionCodec)
{
    const std::string notice = encodeEvent(NoticeEvent {"hi"});
    const auto a = decodeFromAgent(notice);
    EXPECT_TRUE(a.session);
    EXPECT_FALSE(a.value);
    EXPECT_TRUE(a.error.empty());

    // The binary interval is a session message too, told apart by its first byte.
    const auto interval = decodeFromAgent(encodeEvent(IntervalEvent {}));
    EXPECT_TRUE(interval.session);
    EXPECT_FALSE(interval.value);
    EXPECT_TRUE(interval.error.empty());
    const auto b = decodeToAgent(encodeRequest(RunRequest {}));
    EXPECT_TRUE(b.session);
}

TEST(AgentMessages, AMessageThatIsNotRightIsRefusedWithThePathOfItsFirstProblem)
{
    struct Case {
        const char *text;
        const char *error;
    };
    const Case cases[] = {
        {"", "not an agent message (not JSON)"},
        {"[1,2]", "expected an object"},
        {"{\"type\":\"bye\"}", "agent: missing"},
        {R"({"agent":1,"type":"teleport"})", "type: unknown message type \"teleport\""},
        {R"({"agent":1})", "type: missing"},
        {R"({"agent":1,"type":7})", "type: expected a string"},
        {R"({"agent":1,"type":"clock","id":1})", "controllerNs: missing"},
        {R"({"agent":1,"type":"clock","id":"1","controllerNs":0})", "id: expected"},
        {R"({"agent":1,"type":"clock","id":-1,"controllerNs":0})", "id:"},
        {R"({"agent":1,"type":"go","step":1,"startNs":0,"stop":false,"stopp":1})",
            "stopp: unknown field"},
        {R"({"agent":1,"type":"hello","version":"x","session":1,"tokn":"a","controller":""})",
            "token: missing"},
        {R"({"agent":1,"type":"hello","version":"x","session":99999999999,"token":"a","controller":""})",
            "session: out of range"},
    };
    for (const auto &c : cases) {
        const auto decoded = decodeToAgent(c.text);
        EXPECT_FALSE(decoded.value) << c.text;
        EXPECT_NE(decoded.error.find(c.error), std::string::npos)
            << c.text << " gave: " << decoded.error;
    }
    const auto unknown
        = decodeToAgent(R"({"agent":1,"type":"go","step":1,"startNs":0,"stop":false,"stopp":1})");
    EXPECT_NE(unknown.error.find("did you mean \"stop\""), std::string::npos) << unknown.error;
    // A controller's message is not an agent's: each reader knows its own direction.
    EXPECT_FALSE(decodeFromAgent(encodeAgentMessage(ToAgent {ByeMessage {}})).value);
}

TEST(AgentMessages, AnotherProtocolVersionIsRefusedNamingBothVersions)
{
    const auto decoded = decodeToAgent(
        R"({"agent":2,"type":"hello","version":"9.9.9","session":1,"token":"a","controller":""})");
    EXPECT_FALSE(decoded.value);
    EXPECT_NE(decoded.error.find("agent protocol 2 (IOPrism \"9.9.9\")"), std::string::npos)
        << decoded.error;
    EXPECT_NE(decoded.error.find("this IOPrism " IOPRISM_VERSION " speaks agent protocol 1"),
        std::string::npos)
        << decoded.error;
    const auto welcome = decodeFromAgent(R"({"agent":"1","type":"welcome"})");
    EXPECT_NE(welcome.error.find("agent protocol \"1\""), std::string::npos) << welcome.error;
}

TEST(AgentMessages, ARefusalReadsInEveryVersionSoThatAPeerCanSayWhy)
{
    const auto decoded = decodeFromAgent(R"({"agent":7,"type":"refused","reason":"too old"})");
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_EQ(std::get<RefusedMessage>(*decoded.value).reason, "too old");
    // Only in its frozen shape.
    EXPECT_FALSE(decodeFromAgent(R"({"agent":7,"type":"refused","reason":"x","more":1})").value);
}

TEST(AgentMessages, AnAgentReadsNoMessageOverItsLimit)
{
    HelloMessage hello;
    hello.token.assign(kAgentMaxInboundBytes, 'x');
    const auto decoded = decodeToAgent(encodeAgentMessage(ToAgent {hello}));
    EXPECT_FALSE(decoded.value);
    EXPECT_NE(decoded.error.find("over the agent's limit"), std::string::npos) << decoded.error;
}

// ---------------------------------------------------------------- the clock offset

ClockSample sample(std::int64_t sentNs, std::int64_t agentNs, std::int64_t receivedNs)
{
    return {std::chrono::nanoseconds(sentNs), std::chrono::nanoseconds(agentNs),
        std::chrono::nanoseconds(receivedNs)};
}

TEST(ClockSync, ASymmetricRoundTripGivesTheOffsetWithinHalfOfIt)
{
    // The agent's clock is 5 s ahead; each leg takes 100 us.
    const std::int64_t offset = 5'000'000'000;
    const ClockSample s[] = {sample(1'000'000, 1'100'000 + offset, 1'200'000)};
    const auto e = estimateClockOffset(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->offset, std::chrono::nanoseconds(offset));
    EXPECT_EQ(e->uncertainty, 100us);
    EXPECT_EQ(e->samples, 1u);
}

TEST(ClockSync, TheShortestRoundTripIsChosenAndOutliersAndDamagedSamplesAreNot)
{
    const std::int64_t offset = -42'000'000; // the agent is 42 ms behind
    std::vector<ClockSample> s;
    // Asymmetric: out 900 us, back 100 us: the estimate is off by 400 us, within the
    // bound of 500 us.
    s.push_back(sample(0, 900'000 + offset, 1'000'000));
    // An outlier: a round trip of 80 ms (a descheduled thread).
    s.push_back(sample(2'000'000, 70'000'000 + offset, 82'000'000));
    // The best: 40 us, out 30 back 10.
    s.push_back(sample(100'000'000, 100'030'000 + offset, 100'040'000));
    // Damaged: received before it was sent.
    s.push_back(sample(200'000'000, 0, 100'000'000));
    const auto e = estimateClockOffset(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->samples, 3u);
    EXPECT_EQ(e->uncertainty, 20us);
    EXPECT_EQ(e->offset, std::chrono::nanoseconds(offset + 10'000));
    EXPECT_LE(std::chrono::abs(e->offset - std::chrono::nanoseconds(offset)), e->uncertainty)
        << "the truth is within the bound";
    EXPECT_FALSE(estimateClockOffset({}));
    const ClockSample damaged[] = {sample(10, 0, 5)};
    EXPECT_FALSE(estimateClockOffset(damaged));
}

TEST(ClockSync, AnOddRoundTripRoundsTheBoundUp)
{
    const ClockSample s[] = {sample(0, 0, 3)};
    const auto e = estimateClockOffset(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->uncertainty, 2ns);
    EXPECT_LE(std::chrono::abs(e->offset - 0ns), e->uncertainty);
}

// ---------------------------------------------------------------- the token

TEST(ConstantTimeEquals, EqualsOnlyTheSameTextAndNeverAnEmptySecret)
{
    EXPECT_TRUE(constantTimeEquals("s3cret", "s3cret"));
    EXPECT_FALSE(constantTimeEquals("s3creT", "s3cret"));
    EXPECT_FALSE(constantTimeEquals("s3cre", "s3cret"));
    EXPECT_FALSE(constantTimeEquals("s3crets3cret", "s3cret")) << "a repeated secret";
    EXPECT_FALSE(constantTimeEquals("s3cretX", "s3cret"));
    EXPECT_FALSE(constantTimeEquals("", "s3cret"));
    EXPECT_FALSE(constantTimeEquals("", ""));
    EXPECT_FALSE(constantTimeEquals("x", ""));
    // A length that differs only above the low byte.
    EXPECT_FALSE(constantTimeEquals(std::string(256 + 3, 'a'), "aaa"));
}

// ---------------------------------------------------------------- the allow list

// An absolute path on this host from a POSIX one: "/data" here, "C:/data" where a path
// needs a drive to be absolute (Windows), so that the allow list's rules are tested on
// the paths each platform's agent sees.
std::string hostPath(const std::string &posix)
{
    return std::filesystem::path("/").is_absolute() ? posix : "C:" + posix;
}

TEST(TargetRoots, ATargetIsAllowedUnderARootComponentByComponent)
{
    const auto P = hostPath;
    const std::vector<std::string> roots = {P("/data"), P("/dev/nvme1n1"), P("/scratch/")};
    EXPECT_EQ(checkTargetAllowed(P("/data/ioprism.dat"), roots, nullptr), "");
    EXPECT_EQ(checkTargetAllowed(P("/data"), roots, nullptr), "");
    EXPECT_EQ(checkTargetAllowed(P("/data//a/./b"), roots, nullptr), "");
    EXPECT_EQ(checkTargetAllowed(P("/scratch/x"), roots, nullptr), "");
    EXPECT_EQ(checkTargetAllowed(P("/dev/nvme1n1"), roots, nullptr), "");
    const std::string outside = checkTargetAllowed(P("/data2/x"), roots, nullptr);
    EXPECT_EQ(outside,
        "target " + P("/data2/x")
            + " is outside the agent's allowed roots; the agent allows targets under: " + P("/data")
            + ", " + P("/dev/nvme1n1") + ", " + P("/scratch/"));
    EXPECT_NE(checkTargetAllowed(P("/dev/nvme1n1p1"), roots, nullptr), "");
    EXPECT_NE(checkTargetAllowed(P("/dev/sda"), roots, nullptr), "");
}

TEST(TargetRoots, DotDotRelativePathsAndAnEmptyListAreRefused)
{
    const auto P = hostPath;
    const std::vector<std::string> roots = {P("/data")};
    EXPECT_EQ(checkTargetAllowed(P("/data/../etc/passwd"), roots, nullptr),
        "target " + P("/data/../etc/passwd")
            + " contains \"..\"; the agent allows targets under: " + P("/data"));
    EXPECT_NE(checkTargetAllowed(P("/data/x/.."), roots, nullptr), "");
    EXPECT_NE(checkTargetAllowed("data/x", roots, nullptr).find("not an absolute path"),
        std::string::npos);
    EXPECT_NE(checkTargetAllowed("", roots, nullptr), "");
    EXPECT_NE(
        checkTargetAllowed(P("/data/x"), {}, nullptr).find("none (start the agent with --allow"),
        std::string::npos);
    // A root that means nothing allows nothing.
    EXPECT_NE(checkTargetAllowed(P("/data/x"), {"relative", P("/a/../data")}, nullptr), "");
}

TEST(TargetRoots, ALinkInsideARootThatLeadsOutIsRefused)
{
    const auto P = hostPath;
    const std::vector<std::string> roots = {P("/data")};
    // /data/escape is a link to /etc; /data itself is a link to /mnt/data.
    const std::string data = P("/data");
    RealPath realPath = [data, P](const std::string &p) -> std::optional<std::string> {
        if (p == data)
            return P("/mnt/data");
        if (p.rfind(data + "/escape", 0) == 0)
            return P("/etc") + p.substr(data.size() + 7);
        if (p.rfind(data + "/", 0) == 0)
            return P("/mnt/data/") + p.substr(data.size() + 1);
        return std::nullopt;
    };
    EXPECT_EQ(checkTargetAllowed(P("/data/ok/file"), roots, realPath), "");
    const std::string refused = checkTargetAllowed(P("/data/escape/passwd"), roots, realPath);
    EXPECT_EQ(refused.rfind("target " + P("/data/escape/passwd") + " resolves to ", 0), 0u)
        << refused;
    EXPECT_NE(refused.find("passwd, outside the agent's allowed roots; the agent allows targets "
                           "under: "
                  + P("/data")),
        std::string::npos)
        << refused;
}

TEST(TargetRoots, EveryTargetOfEveryHostAndWorkerIsChecked)
{
    const auto P = hostPath;
    Profile p;
    p.hosts.resize(2);
    p.hosts[0].workers.resize(1);
    p.hosts[0].workers[0].targets.resize(1);
    p.hosts[0].workers[0].targets[0].path = P("/data/a");
    p.hosts[1].workers.resize(2);
    p.hosts[1].workers[1].targets.resize(2);
    p.hosts[1].workers[1].targets[0].path = P("/data/b");
    p.hosts[1].workers[1].targets[1].path = P("/home/c");
    EXPECT_NE(checkProfileTargets(p, {P("/data")}, nullptr).find("target " + P("/home/c")),
        std::string::npos);
    p.hosts[1].workers[1].targets[1].path = P("/data/c");
    EXPECT_EQ(checkProfileTargets(p, {P("/data")}, nullptr), "");
}

// ---------------------------------------------------------------- the channel pair

struct Inbox {
    void add(std::string text)
    {
        std::lock_guard lock(mutex);
        messages.push_back(std::move(text));
        wake.notify_all();
    }
    void closed(std::string reason)
    {
        std::lock_guard lock(mutex);
        closedReasons.push_back(std::move(reason));
        wake.notify_all();
    }
    template<typename Pred> bool waitFor(Pred pred)
    {
        std::unique_lock lock(mutex);
        return wake.wait_for(lock, 10s, pred);
    }
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<std::string> messages;
    std::vector<std::string> closedReasons;
};

TEST(ChannelPair, MessagesArriveInOrderAndClosingOneEndsBothAfterWhatWasQueued)
{
    auto [a, b] = makeChannelPair();
    Inbox inA, inB;
    EXPECT_TRUE(a->send("queued before start"));
    a->start([&](std::string t) { inA.add(std::move(t)); },
        [&](std::string r) { inA.closed(std::move(r)); });
    b->start([&](std::string t) { inB.add(std::move(t)); },
        [&](std::string r) { inB.closed(std::move(r)); });
    for (int i = 0; i < 1000; ++i)
        ASSERT_TRUE(a->send(std::to_string(i)));
    EXPECT_TRUE(b->send("back"));
    a->close();
    a->close(); // idempotent
    EXPECT_FALSE(a->send("after close"));
    EXPECT_FALSE(b->send("after close"));
    ASSERT_TRUE(inB.waitFor([&] { return !inB.closedReasons.empty(); }));
    ASSERT_TRUE(inA.waitFor([&] { return !inA.closedReasons.empty(); }));
    ASSERT_EQ(inB.messages.size(), 1001u);
    EXPECT_EQ(inB.messages[0], "queued before start");
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(inB.messages[std::size_t(i) + 1], std::to_string(i));
    EXPECT_EQ(inB.closedReasons, std::vector<std::string> {"the peer closed the connection"});
    EXPECT_EQ(inA.messages, std::vector<std::string> {"back"});
    EXPECT_EQ(inA.closedReasons, std::vector<std::string> {""});
    EXPECT_EQ(a->peer(), "memory");
}

TEST(ChannelPair, DestroyingOneEndClosesThePeerAndCallsNothingOnTheDestroyedOne)
{
    auto [a, b] = makeChannelPair();
    Inbox inB;
    int callsOnA = 0;
    a->start([&](std::string) { ++callsOnA; }, [&](std::string) { ++callsOnA; });
    b->start([&](std::string t) { inB.add(std::move(t)); },
        [&](std::string r) { inB.closed(std::move(r)); });
    a.reset();
    ASSERT_TRUE(inB.waitFor([&] { return !inB.closedReasons.empty(); }));
    EXPECT_EQ(inB.closedReasons[0], "the peer closed the connection");
    EXPECT_FALSE(b->send("to nobody"));
    EXPECT_EQ(callsOnA, 0);
}

TEST(ChannelPair, AnEndMayBeDestroyedFromItsOwnCallback)
{
    auto [a, b] = makeChannelPair();
    std::unique_ptr<MessageChannel> held = std::move(b);
    Inbox done;
    held->start(
        [&](std::string) {
            held.reset(); // the owner lets go of it while it delivers
            done.add("reset");
        },
        [](std::string) {});
    a->start([](std::string) {}, [&](std::string r) { done.closed(std::move(r)); });
    ASSERT_TRUE(a->send("bye"));
    EXPECT_TRUE(
        done.waitFor([&] { return !done.messages.empty() && !done.closedReasons.empty(); }));
}

} // namespace
