// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/device_contents.h"

#include "platform/linux/sysfs.h"

#include <string>

namespace ioprism::platform {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// "LVM2_member" -> "LVM2", "linux_raid_member" -> "Linux RAID": the names blkid gives
// members of a volume group, an array or a pool, as people say them.
std::string memberOf(std::string_view type)
{
    constexpr std::string_view suffix = "_member";
    if (type.size() > suffix.size() && type.ends_with(suffix))
        type.remove_suffix(suffix.size());
    if (type == "linux_raid")
        return "Linux RAID";
    if (type == "zfs")
        return "ZFS";
    std::string name(type);
    for (char &c : name)
        if (c == '_')
            c = ' ';
    return name;
}

std::string partitionTableText(std::string_view type)
{
    if (type == "gpt")
        return "GPT partition table";
    if (type == "dos")
        return "MBR partition table";
    return std::string(type) + " partition table";
}

std::string fileSystemText(const DeviceContents &c)
{
    if (c.fsType.empty())
        return {};
    std::string text;
    // blkid marks ZFS pool members "filesystem", but they are members like the others.
    if (c.fsUsage == "raid" || c.fsType.ends_with("_member"))
        text = memberOf(c.fsType) + " member";
    else if (c.fsType == "crypto_LUKS")
        text = "LUKS encrypted volume";
    else if (c.fsUsage == "crypto")
        text = c.fsType + " encrypted volume";
    else if (c.fsType == "swap")
        text = "swap space";
    else
        text = c.fsType + " file system";
    if (!c.fsLabel.empty())
        text += " \u201C" + c.fsLabel + "\u201D";
    return text;
}

} // namespace

std::string decodeUdevEscapes(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        // "\xNN": a backslash, an x and two hex digits.
        if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
            const int high = hexValue(text[i + 2]);
            const int low = hexValue(text[i + 3]);
            if (high >= 0 && low >= 0) {
                out += static_cast<char>(high * 16 + low);
                i += 3;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

DeviceContents parseUdevContents(std::string_view record)
{
    DeviceContents contents;
    std::string plainLabel;
    bool encodedLabel = false;
    while (!record.empty()) {
        const auto end = record.find('\n');
        std::string_view line = record.substr(0, end);
        record = end == std::string_view::npos ? std::string_view {} : record.substr(end + 1);
        if (!line.starts_with("E:"))
            continue;
        line.remove_prefix(2);
        const auto eq = line.find('=');
        if (eq == std::string_view::npos)
            continue;
        const std::string_view key = line.substr(0, eq);
        const std::string_view value = line.substr(eq + 1);
        if (key == "ID_FS_TYPE")
            contents.fsType = value;
        else if (key == "ID_FS_USAGE")
            contents.fsUsage = value;
        else if (key == "ID_FS_LABEL")
            plainLabel = value;
        else if (key == "ID_FS_LABEL_ENC") {
            // The label as written: ID_FS_LABEL has spaces and odd bytes replaced ('_').
            contents.fsLabel = decodeUdevEscapes(value);
            encodedLabel = true;
        } else if (key == "ID_PART_TABLE_TYPE")
            contents.partTableType = value;
        else if (key == "ID_PART_ENTRY_SCHEME")
            contents.isPartition = true;
    }
    if (!encodedLabel)
        contents.fsLabel = plainLabel;
    return contents;
}

std::string deviceContentsText(const DeviceContents &contents)
{
    std::string text = fileSystemText(contents);
    if (!contents.partTableType.empty() && !contents.isPartition) {
        // A disk with both (a file system signature left over beside a new table) says
        // both: either may be what the user cares about.
        if (!text.empty())
            text += ", ";
        text += partitionTableText(contents.partTableType);
    }
    return text;
}

std::string deviceContentsOf(DeviceNumber device)
{
    if (device.major == 0 && device.minor == 0)
        return {};
    const std::string record = readTextFile(
        "/run/udev/data/b" + std::to_string(device.major) + ":" + std::to_string(device.minor));
    return deviceContentsText(parseUdevContents(record));
}

} // namespace ioprism::platform
