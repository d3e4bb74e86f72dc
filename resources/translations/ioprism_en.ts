<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>Format</name>
    <message numerus="yes">
        <source>%n level(s)</source>
        <translation>
            <numerusform>%n level</numerusform>
            <numerusform>%n levels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message numerus="yes">
        <source>, %n threads</source>
        <translation>
            <numerusform>, %n thread</numerusform>
            <numerusform>, %n threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lines</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::ComparePage</name>
    <message numerus="yes">
        <source>%n runs</source>
        <translation>
            <numerusform>%n run</numerusform>
            <numerusform>%n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in every run</source>
        <translation>
            <numerusform>%n in every run</numerusform>
            <numerusform>%n in every run</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n only in some</source>
        <translation>
            <numerusform>%n only in some</numerusform>
            <numerusform>%n only in some</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::HistoryModel</name>
    <message numerus="yes">
        <source>%1 · %2 · engine %3 · IOPrism %4 · %n steps. Double-click to open it.</source>
        <translation>
            <numerusform>%1 · %2 · engine %3 · IOPrism %4 · %n step. Double-click to open it.</numerusform>
            <numerusform>%1 · %2 · engine %3 · IOPrism %4 · %n steps. Double-click to open it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::HistoryPage</name>
    <message numerus="yes">
        <source>Delete %n run(s) from the history? Their results files are removed.</source>
        <translation>
            <numerusform>Delete %n run from the history? Its results file is removed.</numerusform>
            <numerusform>Delete %n runs from the history? Their results files are removed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::LivePage</name>
    <message numerus="yes">
        <source>Stalled: %n I/Os in flight for %1</source>
        <translation>
            <numerusform>Stalled: %n I/O in flight for %1</numerusform>
            <numerusform>Stalled: %n I/Os in flight for %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::LivePlots</name>
    <message numerus="yes">
        <source>%Ln I/O(s) in %1 – %2</source>
        <translation>
            <numerusform>%Ln I/O in %1 – %2</numerusform>
            <numerusform>%Ln I/Os in %1 – %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::MainWindow</name>
    <message numerus="yes">
        <source>%n specs</source>
        <translation>
            <numerusform>%n spec</numerusform>
            <numerusform>%n specs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problems</source>
        <translation>
            <numerusform>%n problem</numerusform>
            <numerusform>%n problems</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warnings</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n settings</source>
        <translation>
            <numerusform>%n setting</numerusform>
            <numerusform>%n settings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n steps</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Stopping: waiting for the in-flight I/O to complete (gives up in %n s), then up to %1 s for the device&apos;s write-back; press Stop again to stop waiting</source>
        <translation>
            <numerusform>Stopping: waiting for the in-flight I/O to complete (gives up in %n s), then up to %1 s for the device&apos;s write-back; press Stop again to stop waiting</numerusform>
            <numerusform>Stopping: waiting for the in-flight I/O to complete (gives up in %n s), then up to %1 s for the device&apos;s write-back; press Stop again to stop waiting</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n test file(s) could not be removed after the run</source>
        <translation>
            <numerusform>%n test file could not be removed after the run</numerusform>
            <numerusform>%n test files could not be removed after the run</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Removed %n test file(s) after the run</source>
        <translation>
            <numerusform>Removed %n test file after the run</numerusform>
            <numerusform>Removed %n test files after the run</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 already uses %n target(s): %2.</source>
        <translation>
            <numerusform>%1 already uses %n target: %2.</numerusform>
            <numerusform>%1 already uses %n targets: %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The profile cannot run: %n field(s) hold text that is not a value (red fields show where).</source>
        <translation>
            <numerusform>The profile cannot run: %n field holds text that is not a value (red fields show where).</numerusform>
            <numerusform>The profile cannot run: %n fields hold text that is not a value (red fields show where).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::Managers</name>
    <message numerus="yes">
        <source>%1: %2, %n CPUs, IOPrism %3</source>
        <translation>
            <numerusform>%1: %2, %n CPU, IOPrism %3</numerusform>
            <numerusform>%1: %2, %n CPUs, IOPrism %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Clock offset: %1 ms ± %2 ms (%n round trips)</source>
        <translation>
            <numerusform>Clock offset: %1 ms ± %2 ms (%n round trip)</numerusform>
            <numerusform>Clock offset: %1 ms ± %2 ms (%n round trips)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::MessageBar</name>
    <message numerus="yes">
        <source>Dismiss this message (%n more waiting)</source>
        <translation>
            <numerusform>Dismiss this message (%n more waiting)</numerusform>
            <numerusform>Dismiss this message (%n more waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more message(s): close one to see them</source>
        <translation>
            <numerusform>%n more message: close one to see it</numerusform>
            <numerusform>%n more messages: close one to see them</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SeriesPage</name>
    <message numerus="yes">
        <source>%1 (%n values)</source>
        <translation>
            <numerusform>%1 (%n value)</numerusform>
            <numerusform>%1 (%n values)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n trials</source>
        <translation>
            <numerusform>, %n trial</numerusform>
            <numerusform>, %n trials</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>stopped by an error after %1 of %n steps</source>
        <translation>
            <numerusform>stopped by an error after %1 of %n step</numerusform>
            <numerusform>stopped by an error after %1 of %n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>stopped after %1 of %n steps</source>
        <translation>
            <numerusform>stopped after %1 of %n step</numerusform>
            <numerusform>stopped after %1 of %n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n steps done</source>
        <translation>
            <numerusform>%n step done</numerusform>
            <numerusform>%n steps done</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n steps done</source>
        <translation>
            <numerusform>%1 of %n step done</numerusform>
            <numerusform>%1 of %n steps done</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SeriesPlots</name>
    <message numerus="yes">
        <source>%n trials, median (min – max)</source>
        <translation>
            <numerusform>%n trial, median (min – max)</numerusform>
            <numerusform>%n trials, median (min – max)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SetupPage</name>
    <message numerus="yes">
        <source>%n values: %1</source>
        <translation>
            <numerusform>%n value: %1</numerusform>
            <numerusform>%n values: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n steps</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n points</source>
        <translation>
            <numerusform>%n point</numerusform>
            <numerusform>%n points</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n trial</numerusform>
            <numerusform>%n trials</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n access specifications</source>
        <translation>
            <numerusform>%n access specification</numerusform>
            <numerusform>%n access specifications</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, plus %n pauses of %1 between tests (%2)</source>
        <translation>
            <numerusform>, plus %n pause of %1 between tests (%2)</numerusform>
            <numerusform>, plus %n pauses of %1 between tests (%2)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::TargetsPage</name>
    <message numerus="yes">
        <source>%1 (%n files)</source>
        <translation>
            <numerusform>%1 (%n file)</numerusform>
            <numerusform>%1 (%n files)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::TopologyModel</name>
    <message numerus="yes">
        <source>%n targets</source>
        <translation>
            <numerusform>%n target</numerusform>
            <numerusform>%n targets</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n outstanding I/Os</source>
        <translation>
            <numerusform>%n outstanding I/O</numerusform>
            <numerusform>%n outstanding I/Os</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n specs</source>
        <translation>
            <numerusform>%n spec</numerusform>
            <numerusform>%n specs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n workers</source>
        <translation>
            <numerusform>%n worker</numerusform>
            <numerusform>%n workers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::WorkerPanel</name>
    <message numerus="yes">
        <source>&quot;%1&quot; runs at %n outstanding I/Os: the spec&apos;s queue depth.</source>
        <translation>
            <numerusform>&quot;%1&quot; runs at %n outstanding I/O: the spec&apos;s queue depth.</numerusform>
            <numerusform>&quot;%1&quot; runs at %n outstanding I/Os: the spec&apos;s queue depth.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&quot;%1&quot; runs at %n outstanding I/Os: this worker&apos;s value.</source>
        <translation>
            <numerusform>&quot;%1&quot; runs at %n outstanding I/O: this worker&apos;s value.</numerusform>
            <numerusform>&quot;%1&quot; runs at %n outstanding I/Os: this worker&apos;s value.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> transaction(s)</source>
        <translation>
            <numerusform> transaction</numerusform>
            <numerusform> transactions</numerusform>
        </translation>
    </message>
</context>
</TS>
