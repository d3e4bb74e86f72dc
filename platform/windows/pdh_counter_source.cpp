// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/pdh_counter_source.h"

#include "core/stats/perfmon.h"
#include "platform/windows/win_util.h"
#include "platform/windows/windows_devices.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <pdh.h>
#include <pdhmsg.h>

namespace ioprism::platform {

namespace {

std::string pdhStatusText(PDH_STATUS status)
{
    switch (static_cast<DWORD>(status)) {
    case PDH_CSTATUS_NO_OBJECT:
        return "PDH_CSTATUS_NO_OBJECT";
    case PDH_CSTATUS_NO_COUNTER:
        return "PDH_CSTATUS_NO_COUNTER";
    case PDH_CSTATUS_NO_INSTANCE:
        return "PDH_CSTATUS_NO_INSTANCE";
    case PDH_NO_DATA:
        return "PDH_NO_DATA";
    case PDH_NOT_IMPLEMENTED:
        return "PDH_NOT_IMPLEMENTED";
    case PDH_CSTATUS_NO_MACHINE:
        return "PDH_CSTATUS_NO_MACHINE";
    default:
        break;
    }
    char text[16];
    std::snprintf(text, sizeof text, "0x%08lX", static_cast<unsigned long>(status));
    return text;
}

std::uint64_t fileTime100ns(const FILETIME &t)
{
    return (std::uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime;
}

std::uint32_t cpuCountNow()
{
    const DWORD n = ::GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n ? static_cast<std::uint32_t>(n) : 1;
}

// The counters of one PhysicalDisk instance, in PerfDiskRaw order.
constexpr std::array<const wchar_t *, 9> kDiskCounters = {
    L"Disk Read Bytes/sec",
    L"Disk Write Bytes/sec",
    L"Disk Reads/sec",
    L"Disk Writes/sec",
    L"Avg. Disk sec/Read",
    L"Avg. Disk sec/Write",
    L"% Idle Time",
    L"Avg. Disk Queue Length",
    L"Current Disk Queue Length",
};

constexpr std::array<const wchar_t *, 5> kCpuCounters = {
    L"\\Processor(_Total)\\% User Time",
    L"\\Processor(_Total)\\% Privileged Time",
    L"\\Processor(_Total)\\% Interrupt Time",
    L"\\Processor(_Total)\\% DPC Time",
    L"\\Processor(_Total)\\% Idle Time",
};

} // namespace

std::vector<std::uint32_t> disksOfTarget(const std::string &path, std::string &note)
{
    if (const auto n = win::physicalDriveNumber(path))
        return {*n};
    std::wstring volumeDevice;
    if (win::isVolumeDevicePath(path)) {
        volumeDevice = win::widen(path);
        if (volumeDevice.back() == L'\\')
            volumeDevice.pop_back();
    } else {
        const std::wstring w = win::widen(path);
        std::wstring root = win::volumeRootOf(w);
        if (root.empty())
            root = win::volumeRootOf(std::filesystem::path(w).parent_path().wstring());
        if (root.rfind(L"\\\\", 0) == 0 && root.rfind(L"\\\\?\\", 0) != 0) {
            note = "on a network share: no local disk to compare with";
            return {};
        }
        volumeDevice = win::volumeDeviceOf(root);
    }
    const auto extents = volumeDevice.empty() ? std::nullopt : win::volumeDiskExtents(volumeDevice);
    if (!extents || extents->empty()) {
        note = "Windows does not say which disk holds "
            + (volumeDevice.empty() ? path : win::narrow(volumeDevice))
            + " (IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS)";
        return {};
    }
    std::vector<std::uint32_t> disks;
    for (const auto &e : *extents)
        if (std::find(disks.begin(), disks.end(), e.diskNumber) == disks.end())
            disks.push_back(e.diskNumber);
    return disks;
}

struct PdhCounterSource::Impl {
    PdhOptions options;
    std::uint32_t cpuCount = cpuCountNow();

    // CPU through PDH (when all five counters exist), accumulated per span.
    PDH_HQUERY cpuQuery = nullptr;
    std::array<PDH_HCOUNTER, kCpuCounters.size()> cpu {};
    bool cpuPdh = false;
    core::CpuTimes cpuTimes;
    std::chrono::steady_clock::time_point lastCpuCollect;

    // Disks: one query for the watched disks, kDiskCounters.size() counters per disk.
    PDH_HQUERY diskQuery = nullptr;
    std::vector<std::array<PDH_HCOUNTER, kDiskCounters.size()>> disks;
    std::vector<std::uint64_t> timeBase; // per watched disk
    std::map<std::uint32_t, std::wstring> instances; // disk number -> PDH instance name
    std::string diskUnavailable;

    Impl(const PdhOptions &o)
        : options(o)
    {
        openCpu();
        probeDisks();
    }

    ~Impl()
    {
        if (cpuQuery)
            ::PdhCloseQuery(cpuQuery);
        if (diskQuery)
            ::PdhCloseQuery(diskQuery);
    }

    void openCpu()
    {
        if (!options.useProcessorCounters
            || ::PdhOpenQueryW(nullptr, 0, &cpuQuery) != ERROR_SUCCESS)
            return;
        for (std::size_t i = 0; i < kCpuCounters.size(); ++i)
            if (::PdhAddEnglishCounterW(cpuQuery, kCpuCounters[i], 0, &cpu[i]) != ERROR_SUCCESS) {
                ::PdhCloseQuery(cpuQuery);
                cpuQuery = nullptr;
                return;
            }
        // The first collection is the base of the first formatted value.
        if (::PdhCollectQueryData(cpuQuery) != ERROR_SUCCESS) {
            ::PdhCloseQuery(cpuQuery);
            cpuQuery = nullptr;
            return;
        }
        cpuPdh = true;
        lastCpuCollect = std::chrono::steady_clock::now();
        cpuTimes.valid = true;
        cpuTimes.cpuCount = cpuCount;
    }

    // Lists the PhysicalDisk instances ("0 C:", "1 D: E:"), or says why there are none.
    void probeDisks()
    {
        if (!options.usePhysicalDiskCounters) {
            diskUnavailable = "PhysicalDisk counters turned off";
            return;
        }
        DWORD counterChars = 0, instanceChars = 0;
        PDH_STATUS status = ::PdhEnumObjectItemsW(nullptr, nullptr, L"PhysicalDisk", nullptr,
            &counterChars, nullptr, &instanceChars, PERF_DETAIL_WIZARD, 0);
        if (status != static_cast<PDH_STATUS>(PDH_MORE_DATA) && status != ERROR_SUCCESS) {
            diskUnavailable
                = "PDH has no PhysicalDisk counters here (" + pdhStatusText(status) + ")";
            return;
        }
        std::vector<wchar_t> counterList(counterChars + 2), instanceList(instanceChars + 2);
        status = ::PdhEnumObjectItemsW(nullptr, nullptr, L"PhysicalDisk", counterList.data(),
            &counterChars, instanceList.data(), &instanceChars, PERF_DETAIL_WIZARD, 0);
        if (status != ERROR_SUCCESS) {
            diskUnavailable
                = "PDH has no PhysicalDisk counters here (" + pdhStatusText(status) + ")";
            return;
        }
        for (const wchar_t *p = instanceList.data(); *p; p += std::wcslen(p) + 1)
            if (const auto n = core::physicalDiskInstanceNumber(win::narrow(p)))
                instances[*n] = p;
        if (instances.empty())
            diskUnavailable
                = "PDH lists no PhysicalDisk instances (disk performance counters disabled? "
                  "diskperf -y turns them on)";
    }

    bool addDisk(std::uint32_t number, std::string &why)
    {
        const auto it = instances.find(number);
        if (it == instances.end()) {
            why = "PDH has no PhysicalDisk instance for disk " + std::to_string(number);
            return false;
        }
        if (!diskQuery && ::PdhOpenQueryW(nullptr, 0, &diskQuery) != ERROR_SUCCESS) {
            why = "PdhOpenQuery failed";
            return false;
        }
        std::array<PDH_HCOUNTER, kDiskCounters.size()> handles {};
        for (std::size_t i = 0; i < kDiskCounters.size(); ++i) {
            const std::wstring path = L"\\PhysicalDisk(" + it->second + L")\\" + kDiskCounters[i];
            const PDH_STATUS status
                = ::PdhAddEnglishCounterW(diskQuery, path.c_str(), 0, &handles[i]);
            if (status != ERROR_SUCCESS) {
                for (std::size_t j = 0; j < i; ++j)
                    ::PdhRemoveCounter(handles[j]);
                why = "cannot add " + win::narrow(path) + " (" + pdhStatusText(status) + ")";
                return false;
            }
        }
        LONGLONG base = 0;
        if (::PdhGetCounterTimeBase(handles[4], &base) != ERROR_SUCCESS || base <= 0) {
            LARGE_INTEGER f {};
            ::QueryPerformanceFrequency(&f);
            base = f.QuadPart;
        }
        disks.push_back(handles);
        timeBase.push_back(static_cast<std::uint64_t>(base));
        return true;
    }

    void resetDisks()
    {
        if (diskQuery)
            ::PdhCloseQuery(diskQuery);
        diskQuery = nullptr;
        disks.clear();
        timeBase.clear();
    }

    core::CpuTimes sampleCpu()
    {
        core::CpuTimes t;
        if (cpuPdh) {
            const auto now = std::chrono::steady_clock::now();
            if (::PdhCollectQueryData(cpuQuery) != ERROR_SUCCESS)
                return {}; // invalid for this sample; the next span starts here
            core::ProcessorPercents p;
            double *fields[] = {&p.user, &p.privileged, &p.interrupt, &p.dpc};
            bool ok = true;
            for (std::size_t i = 0; i < 4; ++i) {
                PDH_FMT_COUNTERVALUE v {};
                if (::PdhGetFormattedCounterValue(
                        cpu[i], PDH_FMT_DOUBLE | PDH_FMT_NOCAP100, nullptr, &v)
                        != ERROR_SUCCESS
                    || (v.CStatus != PDH_CSTATUS_VALID_DATA && v.CStatus != PDH_CSTATUS_NEW_DATA))
                    ok = false;
                else
                    *fields[i] = v.doubleValue;
            }
            PDH_FMT_COUNTERVALUE idle {};
            if (::PdhGetFormattedCounterValue(
                    cpu[4], PDH_FMT_DOUBLE | PDH_FMT_NOCAP100, nullptr, &idle)
                    == ERROR_SUCCESS
                && (idle.CStatus == PDH_CSTATUS_VALID_DATA || idle.CStatus == PDH_CSTATUS_NEW_DATA))
                p.idle = idle.doubleValue;
            if (ok)
                core::accumulateCpu(cpuTimes, p, now - lastCpuCollect, cpuCount);
            lastCpuCollect = now;
            t = cpuTimes;
        } else {
            FILETIME idle {}, kernel {}, user {};
            if (!::GetSystemTimes(&idle, &kernel, &user))
                return {};
            t = core::cpuTimesFromSystemTimes(
                fileTime100ns(idle), fileTime100ns(kernel), fileTime100ns(user), 0, 0, cpuCount);
        }
        FILETIME created {}, exited {}, kernel {}, user {};
        if (::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user)) {
            t.processSystemNs = fileTime100ns(kernel) * 100;
            t.processUserNs = fileTime100ns(user) * 100;
        }
        return t;
    }

    void sampleDisks(std::vector<core::DiskSample> &out)
    {
        out.assign(disks.size(), {});
        if (disks.empty() || ::PdhCollectQueryData(diskQuery) != ERROR_SUCCESS)
            return;
        for (std::size_t d = 0; d < disks.size(); ++d) {
            std::array<PDH_RAW_COUNTER, kDiskCounters.size()> raw {};
            bool ok = true;
            for (std::size_t i = 0; i < kDiskCounters.size() && ok; ++i) {
                DWORD type = 0;
                ok = ::PdhGetRawCounterValue(disks[d][i], &type, &raw[i]) == ERROR_SUCCESS
                    && (raw[i].CStatus == PDH_CSTATUS_VALID_DATA
                        || raw[i].CStatus == PDH_CSTATUS_NEW_DATA);
            }
            if (!ok)
                continue;
            const auto u = [](LONGLONG v) {
                return v > 0 ? static_cast<std::uint64_t>(v) : std::uint64_t(0);
            };
            core::PerfDiskRaw r;
            r.readBytes = u(raw[0].FirstValue);
            r.writeBytes = u(raw[1].FirstValue);
            r.reads = u(raw[2].FirstValue);
            r.writes = u(raw[3].FirstValue);
            r.readTimeTicks = u(raw[4].FirstValue);
            r.writeTimeTicks = u(raw[5].FirstValue);
            r.idleTime100ns = u(raw[6].FirstValue);
            r.idleTimestamp100ns = u(raw[6].SecondValue);
            r.queueTime100ns = u(raw[7].FirstValue);
            r.currentQueueLength = u(raw[8].FirstValue);
            out[d].valid = true;
            out[d].counters = core::diskCountersFromPerf(r, timeBase[d]);
        }
    }
};

PdhCounterSource::PdhCounterSource(const PdhOptions &options)
    : m_impl(std::make_unique<Impl>(options))
{ }

PdhCounterSource::~PdhCounterSource() = default;

bool PdhCounterSource::cpuFromPdh() const
{
    return m_impl->cpuPdh;
}

const std::string &PdhCounterSource::diskCountersUnavailable() const
{
    return m_impl->diskUnavailable;
}

core::CounterSnapshot PdhCounterSource::sample()
{
    core::CounterSnapshot s;
    s.cpu = m_impl->sampleCpu();
    m_impl->sampleDisks(s.disks);
    return s;
}

core::DeviceMap PdhCounterSource::watchTargets(const std::vector<std::string> &targetPaths)
{
    m_impl->resetDisks();
    core::DeviceMap map;
    std::vector<std::uint32_t> watched; // disk number per map.devices entry
    for (const auto &path : targetPaths) {
        core::TargetDevices t;
        t.targetPath = path;
        if (!m_impl->diskUnavailable.empty()) {
            t.note = "device counters unavailable: " + m_impl->diskUnavailable;
            map.targets.push_back(std::move(t));
            continue;
        }
        std::string note;
        const auto disks = disksOfTarget(path, note);
        if (disks.empty()) {
            t.note = "device counters unavailable: " + note;
            map.targets.push_back(std::move(t));
            continue;
        }
        for (std::size_t k = 0; k < disks.size(); ++k) {
            const std::uint32_t n = disks[k];
            auto it = std::find(watched.begin(), watched.end(), n);
            std::size_t index = static_cast<std::size_t>(it - watched.begin());
            if (it == watched.end()) {
                std::string why;
                if (!m_impl->addDisk(n, why)) {
                    t.note = "device counters unavailable: " + why;
                    break;
                }
                core::WatchedDevice dev;
                dev.name = "PhysicalDrive" + std::to_string(n);
                dev.role = disks.size() == 1 ? core::DeviceRole::Target : core::DeviceRole::Slave;
                dev.via = disks.size() == 1 ? std::string() : path;
                dev.inTotal = true; // each disk once, whichever targets share it
                map.devices.push_back(std::move(dev));
                watched.push_back(n);
                index = watched.size() - 1;
            }
            if (k == 0)
                t.device = index;
        }
        if (!t.note.empty())
            t.device.reset();
        map.targets.push_back(std::move(t));
    }
    // Raw values exist after the first collection.
    if (m_impl->diskQuery)
        ::PdhCollectQueryData(m_impl->diskQuery);
    return map;
}

} // namespace ioprism::platform
