<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Format</name>
    <message>
        <source>transfer size</source>
        <translation>Transfergröße</translation>
    </message>
    <message>
        <source>outstanding I/Os per target</source>
        <translation>ausstehende I⁠/⁠Os je Ziel</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>% read</source>
        <translation>% Lesen</translation>
    </message>
    <message>
        <source>% random</source>
        <translation>% zufällig</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>%1 × %2 × %3 = %4</source>
        <translation>%1 × %2 × %3 = %4</translation>
    </message>
    <message numerus="yes">
        <source>%n level(s)</source>
        <translation>
            <numerusform>%n Ebene</numerusform>
            <numerusform>%n Ebenen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n Datei</numerusform>
            <numerusform>%n Dateien</numerusform>
        </translation>
    </message>
    <message>
        <source>All</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>alignment</source>
        <translation>Ausrichtung</translation>
    </message>
    <message>
        <source>reply size</source>
        <translation>Antwortgröße</translation>
    </message>
    <message>
        <source>% of access</source>
        <translation>% der Zugriffe</translation>
    </message>
    <message>
        <source>delay</source>
        <translation>Verzögerung</translation>
    </message>
    <message>
        <source>burst</source>
        <translation>Burst</translation>
    </message>
    <message>
        <source>queue depth</source>
        <translation>Warteschlangentiefe</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>lines</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>outstanding I/Os</source>
        <translation>ausstehende I/Os</translation>
    </message>
    <message>
        <source>test file size</source>
        <translation>Testdateigröße</translation>
    </message>
    <message>
        <source>region</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>data pattern</source>
        <translation>Datenmuster</translation>
    </message>
    <message>
        <source>CPU affinity</source>
        <translation>CPU-Affinität</translation>
    </message>
    <message>
        <source>file tree</source>
        <translation>Dateibaum</translation>
    </message>
    <message>
        <source>file size</source>
        <translation>Dateigröße</translation>
    </message>
    <message>
        <source>files per folder</source>
        <translation>Dateien je Ordner</translation>
    </message>
    <message>
        <source>run time per step</source>
        <translation>Laufzeit je Schritt</translation>
    </message>
    <message>
        <source>ramp-up</source>
        <translation>Anlauf</translation>
    </message>
    <message>
        <source>sampling interval</source>
        <translation>Messintervall</translation>
    </message>
    <message>
        <source>series</source>
        <translation>Reihe</translation>
    </message>
    <message>
        <source>axis</source>
        <translation>Achse</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>targets</source>
        <translation>Ziele</translation>
    </message>
    <message>
        <source>description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>test type</source>
        <translation>Testtyp</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>Test Setup</source>
        <translation>Testaufbau</translation>
    </message>
    <message>
        <source>spec %1</source>
        <translation>Spezifikation %1</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>manager %1</source>
        <translation>Manager %1</translation>
    </message>
    <message>
        <source>worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>Ziel %1</translation>
    </message>
    <message>
        <source>this host</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>position (% of each target)</source>
        <translation>Position (% jedes Ziels)</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>PresetDescriptions</name>
    <message>
        <source>Block size x concurrency: random reads over a matrix of transfer sizes and queue depths, shown as a heat map. Expect IOPS to grow with queue depth until the device is saturated (an optimum beyond which latency only grows), and the optimum to move to lower depths as blocks get larger.</source>
        <translation>Blockgröße × Parallelität: zufälliges Lesen über eine Matrix aus Transfergrößen und Warteschlangentiefen, als Heatmap dargestellt. Zu erwarten: Die IOPS steigen mit der Warteschlangentiefe, bis das Gerät gesättigt ist (ein Optimum, jenseits dessen nur noch die Latenz wächst), und das Optimum wandert mit größeren Blöcken zu geringeren Tiefen.</translation>
    </message>
    <message>
        <source>CrystalDiskMark-style default set: sequential and random reads and writes, each at a deep and at a shallow queue</source>
        <translation>Satz im Stil von CrystalDiskMark, Standard: sequenzielles und zufälliges Lesen und Schreiben, jeweils mit tiefer und mit flacher Warteschlange</translation>
    </message>
    <message>
        <source>CrystalDiskMark-style NVMe set: sequential and random tests with the deeper queues and extra threads an NVMe drive needs to reach its peak</source>
        <translation>Satz im Stil von CrystalDiskMark für NVMe: sequenzielle und zufällige Tests mit den tieferen Warteschlangen und zusätzlichen Threads, die ein NVMe-Laufwerk für seine Spitzenleistung braucht</translation>
    </message>
    <message>
        <source>CrystalDiskMark-style peak performance: sequential and random at deep queues</source>
        <translation>Satz im Stil von CrystalDiskMark, Spitzenleistung: sequenziell und zufällig mit tiefen Warteschlangen</translation>
    </message>
    <message>
        <source>CrystalDiskMark-style real world performance: sequential and random with one I/O at a time, as most desktop programs do</source>
        <translation>Satz im Stil von CrystalDiskMark, Praxisleistung: sequenziell und zufällig mit jeweils nur einer I⁠/⁠O, wie die meisten Desktop-Programme arbeiten</translation>
    </message>
    <message>
        <source>Workload pattern: Database (Iometer community pattern)</source>
        <translation>Lastmuster: Datenbank (Muster der Iometer-Community)</translation>
    </message>
    <message>
        <source>dd block-size series, as a RAM-SAN study ran it: sequential writes then sequential reads, one request at a time, the block size growing. Expect MB/s to climb with the block size while per-request latency dominates and to level off at the device&apos;s (or the link&apos;s) bandwidth; a copy with dd sees the same curve.</source>
        <translation>dd-Blockgrößenreihe, wie eine RAM-SAN-Studie sie gefahren hat: erst sequenzielles Schreiben, dann sequenzielles Lesen, jeweils eine Anforderung, die Blockgröße wachsend. Zu erwarten: Die MB/s steigen mit der Blockgröße, solange die Latenz je Anforderung überwiegt, und flachen bei der Bandbreite des Geräts (oder der Anbindung) ab; eine Kopie mit dd zeigt dieselbe Kurve.</translation>
    </message>
    <message>
        <source>Workload pattern: File server (Iometer community pattern)</source>
        <translation>Lastmuster: Dateiserver (Muster der Iometer-Community)</translation>
    </message>
    <message>
        <source>io_profile&apos;s file-tree mode: every operation picks a random file of a tree, opens it, reads or writes at a random aligned place and closes it, so the figures include what the file system spends on lookup, open and close. Random writes then random reads over growing I/O sizes, meant to compare a direct (O_DIRECT) and a buffered tree. Expect the buffered curve above the direct one (the page cache serves reads and absorbs writes), files opened per second equal to the operations per second, and the device verdict to name the file system&apos;s own metadata I/O. io_profile made plain system calls: --engine sync does the same one I/O at a time; through io_uring, ext4 hands every buffered write to a kernel thread, so buffered writes there cost about what direct ones do.</source>
        <translation>Dateibaum-Modus von io_profile: Jede Operation wählt eine zufällige Datei eines Baums, öffnet sie, liest oder schreibt an einer zufälligen ausgerichteten Stelle und schließt sie, sodass die Werte enthalten, was das Dateisystem für Suchen, Öffnen und Schließen aufwendet. Erst zufälliges Schreiben, dann zufälliges Lesen über wachsende I⁠/⁠O-Größen, gedacht zum Vergleich eines direkten (O_DIRECT) mit einem gepufferten Baum. Zu erwarten: die gepufferte Kurve über der direkten (der Seitencache bedient Lesevorgänge und fängt Schreibvorgänge ab), so viele geöffnete Dateien pro Sekunde wie Operationen pro Sekunde, und das Geräteurteil nennt die eigene Metadaten-I⁠/⁠O des Dateisystems. io_profile machte einfache Systemaufrufe: --engine sync tut dasselbe, eine I⁠/⁠O nach der anderen; über io_uring gibt ext4 jeden gepufferten Schreibvorgang an einen Kernel-Thread ab, sodass gepufferte Schreibvorgänge dort etwa so viel kosten wie direkte.</translation>
    </message>
    <message>
        <source>I/O-size profile, as io_profile measures it: writes then reads over growing I/O sizes, a fixed number of I/Os per size, meant to compare a direct (O_DIRECT) and a buffered test file. Expect the direct curve to show the device&apos;s own cost per request and the buffered one the page cache&apos;s (far faster reads once cached, writes that complete in memory); where a curve bends, a layer of the stack (a cache size, a request-size limit) takes over.</source>
        <translation>I⁠/⁠O-Größenprofil, wie io_profile es misst: erst Schreiben, dann Lesen über wachsende I⁠/⁠O-Größen, eine feste Zahl von I⁠/⁠Os je Größe, gedacht zum Vergleich einer direkten (O_DIRECT) mit einer gepufferten Testdatei. Zu erwarten: Die direkte Kurve zeigt die eigenen Kosten des Geräts je Anforderung, die gepufferte die des Seitencaches (weit schnelleres Lesen, sobald zwischengespeichert, Schreibvorgänge, die im Speicher abgeschlossen werden); wo eine Kurve abknickt, übernimmt eine Schicht des Stacks (eine Cachegröße, eine Grenze der Anforderungsgröße).</translation>
    </message>
    <message>
        <source>Iometer cycling example: Iometer&apos;s &apos;Cycle # Outstanding I/Os&apos; test for an OLTP mix and then for sequential reads, with the workers sharing one target. Runs one step per depth for each spec, as Iometer would, and its CSV has Iometer&apos;s blocks (one per step). Expect IOPS to rise with depth until the device saturates.</source>
        <translation>Beispiel für Zyklen in Iometer: der Test „Cycle # Outstanding I⁠/⁠Os“ von Iometer für eine OLTP-Mischung und dann für sequenzielles Lesen, wobei sich die Worker ein Ziel teilen. Führt wie Iometer je Spezifikation einen Schritt pro Tiefe aus, und die CSV-Datei hat die Blöcke von Iometer (einen je Schritt). Zu erwarten: Die IOPS steigen mit der Tiefe, bis das Gerät gesättigt ist.</translation>
    </message>
    <message>
        <source>Iometer&apos;s shipped access specifications and &quot;All in one&quot;, to pick from (--spec on the command line)</source>
        <translation>Die mit Iometer ausgelieferten Zugriffsspezifikationen und „Alles in einem“ zur Auswahl (--spec auf der Kommandozeile)</translation>
    </message>
    <message>
        <source>Queue-depth curve: small random reads at growing queue depths. Expect IOPS to rise with depth while the device has parallelism to use (many-fold on NVMe, little on a single disk) and then flatten, while latency grows in proportion to the depth (Little&apos;s law).</source>
        <translation>Warteschlangentiefen-Kurve: kleine zufällige Lesevorgänge bei wachsender Warteschlangentiefe. Zu erwarten: Die IOPS steigen mit der Tiefe, solange das Gerät Parallelität zu nutzen hat (vielfach bei NVMe, wenig bei einer einzelnen Festplatte), und flachen dann ab, während die Latenz proportional zur Tiefe wächst (Littles Gesetz).</translation>
    </message>
    <message>
        <source>Quick check: sequential and random transfers, read then write</source>
        <translation>Schnelltest: sequenzielle und zufällige Transfers, erst Lesen, dann Schreiben</translation>
    </message>
    <message>
        <source>Block-size spectrum, as the iops tool measures it: random reads at a deep queue over a wide range of sizes. Expect IOPS flat while the device&apos;s per-request cost dominates (to about 128 KiB on a disk, thanks to read-ahead; to about 8 KiB on an SSD), then falling by half per doubling once bandwidth saturates (often from 64 KiB on SSDs), where MB/s levels off.</source>
        <translation>Blockgrößen-Spektrum, wie das Werkzeug iops es misst: zufälliges Lesen mit tiefer Warteschlange über einen weiten Größenbereich. Zu erwarten: flache IOPS, solange die Kosten des Geräts je Anforderung überwiegen (bei einer Festplatte dank Read-ahead bis etwa 128 KiB, bei einer SSD bis etwa 8 KiB), dann eine Halbierung je Verdopplung, sobald die Bandbreite gesättigt ist (bei SSDs oft ab 64 KiB), wo die MB/s abflachen.</translation>
    </message>
    <message>
        <source>Sequential read, then write, with large requests at a deep queue: the pair that showed dd and copy dialogs wrong</source>
        <translation>Sequenzielles Lesen, dann Schreiben, mit großen Anforderungen bei tiefer Warteschlange: das Paar, das dd und Kopierdialoge als falsch entlarvte</translation>
    </message>
    <message>
        <source>Workload pattern: Web server (Iometer community pattern)</source>
        <translation>Lastmuster: Webserver (Muster der Iometer-Community)</translation>
    </message>
    <message>
        <source>Workload pattern: Workstation (Iometer community pattern)</source>
        <translation>Lastmuster: Workstation (Muster der Iometer-Community)</translation>
    </message>
    <message>
        <source>SNIA PTS-style IOPS until steady: 4 KiB random writes, then 4 KiB random reads, at a queue of 32, each in rounds of one minute until the last five rounds are steady by PTS&apos;s rule (their range within 20 % of their mean, their fitted line&apos;s excursion within 10 %), at most 25 rounds: up to 25 minutes per test. The results keep every round and say which formed the steady window, or that steady state was not reached. Expect a fresh drive&apos;s first write rounds high and falling as its fast cache fills and it starts to clean. First, as PTS does, the target is preconditioned: written whole twice by 128 KiB sequential writes, measured apart and in none of the tests&apos; figures (on a 1 TB drive at 1 GB/s, about 35 minutes; the progress says the time left). A test file measures a corner of the drive; its raw device (data destroyed), the drive itself.</source>
        <translation>IOPS im Stil von SNIA PTS bis zum eingeschwungenen Zustand: zufälliges Schreiben mit 4 KiB, dann zufälliges Lesen mit 4 KiB, bei einer Warteschlange von 32, jeweils in Runden von einer Minute, bis die letzten fünf Runden nach der Regel von PTS eingeschwungen sind (ihre Spanne innerhalb von 20 % ihres Mittelwerts, die Auslenkung ihrer Ausgleichsgeraden innerhalb von 10 %), höchstens 25 Runden: bis zu 25 Minuten je Test. Die Ergebnisse behalten jede Runde und sagen, welche das eingeschwungene Fenster bildeten oder dass der eingeschwungene Zustand nicht erreicht wurde. Zu erwarten: Die ersten Schreibrunden eines frischen Laufwerks sind hoch und fallen, während sich sein schneller Cache füllt und es aufzuräumen beginnt. Zuerst wird das Ziel wie bei PTS vorkonditioniert: zweimal ganz mit sequenziellen Schreibvorgängen zu 128 KiB beschrieben, getrennt gemessen und in keinem Wert der Tests (auf einem 1-TB-Laufwerk mit 1 GB/s etwa 35 Minuten; der Fortschritt nennt die Restzeit). Eine Testdatei misst eine Ecke des Laufwerks, sein Rohgerät (die Daten werden zerstört) das Laufwerk selbst.</translation>
    </message>
    <message>
        <source>Write saturation (SLC cache): 128 KiB sequential writes at a queue of 32 for 10 minutes, the write rate judged for a cliff where it falls and stays down, reported with the bytes written before it (the fast cache&apos;s size), the rates before and after. A drive&apos;s cache can hold tens of GB: if it outlasts the run, there is no cliff; lengthen the run time. Its raw device (data destroyed) shows the drive&apos;s own cache; preparing a test file already writes the file once.</source>
        <translation>Schreibsättigung (SLC-Cache): sequenzielles Schreiben mit 128 KiB bei einer Warteschlange von 32 für 10 Minuten; die Schreibrate wird auf eine Klippe geprüft, an der sie fällt und unten bleibt, mit den davor geschriebenen Bytes (der Größe des schnellen Caches) und den Raten davor und danach. Der Cache eines Laufwerks kann zig GB fassen: Reicht er länger als der Lauf, gibt es keine Klippe; verlängern Sie die Laufzeit. Sein Rohgerät (die Daten werden zerstört) zeigt den Cache des Laufwerks selbst; das Vorbereiten einer Testdatei beschreibt die Datei bereits einmal.</translation>
    </message>
    <message>
        <source>Rate by position (GNOME Disks&apos; benchmark): 1 MiB sequential reads at a queue of 4 in 100 zones across each target, up to 32 MiB from the start of each zone (a smaller zone is read once, whole), drawn on the Series page as MB/s and latency against the position. A hard disk reads its outer tracks (the start) about twice as fast as its inner ones; an SSD should be level, and a dip marks a slow or remapped area. It only reads: on a raw device nothing is written and the whole drive is measured; a test file measures the part of the drive it lies on. It reads up to 3.4 GB: seconds on an SSD, about half a minute on a hard disk.</source>
        <translation>Übertragungsrate nach Position (der Benchmark von GNOME Disks): sequenzielles Lesen von 1 MiB bei einer Warteschlange von 4 in 100 Zonen über jedes Ziel, bis zu 32 MiB ab dem Anfang jeder Zone (eine kleinere Zone wird einmal ganz gelesen), auf der Seite Serie als MB/s und Latenz über der Position gezeichnet. Eine Festplatte liest ihre äußeren Spuren (den Anfang) etwa doppelt so schnell wie die inneren; eine SSD sollte gleichmäßig sein, und ein Einbruch zeigt einen langsamen oder umgelagerten Bereich. Es wird nur gelesen: auf einem Rohgerät wird nichts geschrieben und das ganze Laufwerk gemessen; eine Testdatei misst den Teil des Laufwerks, auf dem sie liegt. Es liest bis zu 3,4 GB: Sekunden auf einer SSD, etwa eine halbe Minute auf einer Festplatte.</translation>
    </message>
</context>
<context>
    <name>PresetSpecs</name>
    <message>
        <source>Random read</source>
        <translation>Zufälliges Lesen</translation>
    </message>
    <message>
        <source>Random write</source>
        <translation>Zufälliges Schreiben</translation>
    </message>
    <message>
        <source>Sequential read</source>
        <translation>Sequenzielles Lesen</translation>
    </message>
    <message>
        <source>Sequential write</source>
        <translation>Sequenzielles Schreiben</translation>
    </message>
    <message>
        <source>4K random read</source>
        <translation>4K zufälliges Lesen</translation>
    </message>
    <message>
        <source>64K sequential read</source>
        <translation>64K sequenzielles Lesen</translation>
    </message>
    <message>
        <source>OLTP 8K 70% read</source>
        <translation>OLTP 8K 70 % Lesen</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>File server</source>
        <translation>Dateiserver</translation>
    </message>
    <message>
        <source>Web server</source>
        <translation>Webserver</translation>
    </message>
    <message>
        <source>Workstation</source>
        <translation>Workstation</translation>
    </message>
    <message>
        <source>All in one</source>
        <translation>Alles in einem</translation>
    </message>
    <message>
        <source>%1 Read</source>
        <translation>%1 Lesen</translation>
    </message>
    <message>
        <source>%1 Write</source>
        <translation>%1 Schreiben</translation>
    </message>
</context>
<context>
    <name>Presets</name>
    <message>
        <source>CrystalDiskMark</source>
        <translation>CrystalDiskMark</translation>
    </message>
    <message>
        <source>CrystalDiskMark %1</source>
        <translation>CrystalDiskMark %1</translation>
    </message>
    <message>
        <source>Iometer</source>
        <translation>Iometer</translation>
    </message>
    <message>
        <source>Iometer access specifications</source>
        <translation>Iometer-Zugriffsspezifikationen</translation>
    </message>
    <message>
        <source>Workload patterns</source>
        <translation>Lastmuster</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>%1, %2 % read, %3 % random</source>
        <translation>%1, %2 % Lesen, %3 % zufällig</translation>
    </message>
    <message>
        <source>, QD%1</source>
        <translation>, QD%1</translation>
    </message>
    <message numerus="yes">
        <source>, %n threads</source>
        <translation>
            <numerusform>, %n Thread</numerusform>
            <numerusform>, %n Threads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lines</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Quick check</source>
        <translation>Schnelltest</translation>
    </message>
    <message>
        <source>Block size × queue depth matrix</source>
        <translation>Blockgröße × Warteschlangentiefe (Matrix)</translation>
    </message>
    <message>
        <source>dd block-size series</source>
        <translation>dd-Blockgrößenreihe</translation>
    </message>
    <message>
        <source>I/O-size profile (io_profile)</source>
        <translation>I/O-Größenprofil (io_profile)</translation>
    </message>
    <message>
        <source>File-tree operations (io_profile)</source>
        <translation>Dateibaum-Operationen (io_profile)</translation>
    </message>
    <message>
        <source>Iometer cycling: outstanding I/Os</source>
        <translation>Iometer-Zyklus: ausstehende I/Os</translation>
    </message>
    <message>
        <source>Queue-depth curve</source>
        <translation>Warteschlangentiefen-Kurve</translation>
    </message>
    <message>
        <source>Block-size spectrum</source>
        <translation>Blockgrößen-Spektrum</translation>
    </message>
    <message>
        <source>Sequential 512 KiB read and write</source>
        <translation>Sequenziell 512 KiB lesen und schreiben</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>File server</source>
        <translation>Dateiserver</translation>
    </message>
    <message>
        <source>Web server</source>
        <translation>Webserver</translation>
    </message>
    <message>
        <source>Workstation</source>
        <translation>Arbeitsplatzrechner</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Worker %1</source>
        <translation>Worker %1</translation>
    </message>
    <message>
        <source>SNIA PTS IOPS (steady state)</source>
        <translation>SNIA-PTS-IOPS (eingeschwungener Zustand)</translation>
    </message>
    <message>
        <source>Write saturation / SLC cache</source>
        <translation>Schreibsättigung / SLC-Cache</translation>
    </message>
    <message>
        <source>SSD over time</source>
        <translation>SSD über die Zeit</translation>
    </message>
    <message>
        <source>Rate by position</source>
        <translation>Übertragungsrate nach Position</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>I/Os by latency</source>
        <translation>I⁠/⁠Os nach Latenz</translation>
    </message>
</context>
<context>
    <name>SeriesData</name>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
</context>
<context>
    <name>SteadyStateOverlay</name>
    <message>
        <source>Steady state (%1 on %2)</source>
        <translation>Eingeschwungener Zustand (%1 nach %2)</translation>
    </message>
    <message>
        <source>%1: round %2 of at most %3; a window is %4 rounds</source>
        <translation>%1: Runde %2 von höchstens %3; ein Fenster umfasst %4 Runden</translation>
    </message>
    <message>
        <source>steady at rounds %1</source>
        <translation>eingeschwungen in den Runden %1</translation>
    </message>
    <message>
        <source>rounds %1 not steady yet (round %2 of at most %3)</source>
        <translation>Runden %1 noch nicht eingeschwungen (Runde %2 von höchstens %3)</translation>
    </message>
    <message>
        <source>not reached in %1 rounds (the last window: rounds %2)</source>
        <translation>in %1 Runden nicht erreicht (das letzte Fenster: Runden %2)</translation>
    </message>
    <message>
        <source>range %1 (at most %2) · slope excursion %3 (at most %4)</source>
        <translation>Spanne %1 (höchstens %2) · Auslenkung der Ausgleichsgeraden %3 (höchstens %4)</translation>
    </message>
    <message>
        <source>deviation %1 (below %2)</source>
        <translation>Abweichung %1 (unter %2)</translation>
    </message>
    <message>
        <source>slope %1 of the mean per round (below %2)</source>
        <translation>Steigung %1 des Mittels je Runde (unter %2)</translation>
    </message>
</context>
<context>
    <name>Verdict</name>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>application</source>
        <translation>Anwendung</translation>
    </message>
    <message>
        <source>device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>device/application</source>
        <translation>Gerät/Anwendung</translation>
    </message>
    <message>
        <source>The devices moved the bytes the application measured: the figures are the device&apos;s.</source>
        <translation>Die Geräte haben die Bytes bewegt, die die Anwendung gemessen hat: Die Zahlen sind die des Geräts.</translation>
    </message>
    <message>
        <source>The application read more than the devices did: a cache (the page cache in buffered mode, or one in between) served the rest. These are not the device&apos;s figures.</source>
        <translation>Die Anwendung hat mehr gelesen als die Geräte: Ein Cache (der Page-Cache im gepufferten Modus oder einer dazwischen) hat den Rest geliefert. Das sind nicht die Zahlen des Geräts.</translation>
    </message>
    <message>
        <source>The devices have written less than the application: the rest sits in a cache waiting to be written back. These are not the device&apos;s figures.</source>
        <translation>Die Geräte haben weniger geschrieben als die Anwendung: Der Rest liegt in einem Cache und wartet auf das Zurückschreiben. Das sind nicht die Zahlen des Geräts.</translation>
    </message>
    <message>
        <source>The devices did more than the application asked, in a direction it did not use: another process is using them.</source>
        <translation>Die Geräte haben mehr getan, als die Anwendung verlangt hat, in einer Richtung, die sie nicht nutzt: Ein anderer Prozess verwendet sie.</translation>
    </message>
    <message>
        <source>The devices moved far more than the application: journaling, read-ahead or read-modify-write of misaligned or partial blocks (or another process in the same direction).</source>
        <translation>Die Geräte haben weit mehr bewegt als die Anwendung: Journaling, Read-ahead oder Read-Modify-Write nicht ausgerichteter oder unvollständiger Blöcke (oder ein anderer Prozess in derselben Richtung).</translation>
    </message>
    <message>
        <source>Device counters are not available for these targets: the device&apos;s own figures cannot confirm the application&apos;s.</source>
        <translation>Für diese Ziele gibt es keine Gerätezähler: Die eigenen Zahlen des Geräts können die der Anwendung nicht bestätigen.</translation>
    </message>
    <message>
        <source>reads</source>
        <translation>Lesevorgänge</translation>
    </message>
    <message>
        <source>writes</source>
        <translation>Schreibvorgänge</translation>
    </message>
    <message>
        <source>role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>via</source>
        <translation>über</translation>
    </message>
    <message>
        <source>targets total</source>
        <translation>Ziele gesamt</translation>
    </message>
    <message>
        <source>no device counters</source>
        <translation>keine Gerätezähler</translation>
    </message>
    <message>
        <source>This interval:</source>
        <translation>Dieses Intervall:</translation>
    </message>
    <message>
        <source>Device verdict</source>
        <translation>Urteil der Geräte</translation>
    </message>
    <message>
        <source>Devices (iostat&apos;s figures over the measured time):</source>
        <translation>Geräte (die Zahlen von iostat über die gemessene Zeit):</translation>
    </message>
    <message>
        <source>After the run: %1 written by the application (ramp-up included) were not on the devices yet; the devices wrote %2 in the %3 s after the end (%4).</source>
        <translation>Nach dem Lauf: %1, von der Anwendung geschrieben (Anlaufzeit eingeschlossen), waren noch nicht auf den Geräten; die Geräte schrieben %2 in den %3 s nach dem Ende (%4).</translation>
    </message>
    <message>
        <source>then idle</source>
        <translation>danach untätig</translation>
    </message>
    <message>
        <source>%1 still not written when sampling stopped</source>
        <translation>%1 noch nicht geschrieben, als die Messung endete</translation>
    </message>
    <message>
        <source>The device&apos;s requests average %1, the application&apos;s I/Os %2: the kernel splits each I/O at the device&apos;s maximum request size into about %3 device requests, so the device counts about %3× the application&apos;s IOPS for the same bytes.</source>
        <translation>Die Anfragen des Geräts sind im Mittel %1 groß, die I⁠/⁠Os der Anwendung %2: Der Kernel teilt jedes I⁠/⁠O an der maximalen Anfragegröße des Geräts in etwa %3 Geräteanfragen, daher zählt das Gerät für dieselben Bytes etwa %3× die IOPS der Anwendung.</translation>
    </message>
    <message>
        <source>The devices moved more than the application&apos;s own I/O: the file system&apos;s metadata for opening and closing files (directory lookups, inodes, the journal&apos;s time stamps). The application&apos;s figures include what that costs.</source>
        <translation>Die Geräte haben mehr bewegt als die I⁠/⁠O der Anwendung selbst: die Metadaten des Dateisystems zum Öffnen und Schließen von Dateien (Verzeichnissuche, Inodes, die Zeitstempel im Journal). Die Zahlen der Anwendung enthalten, was das kostet.</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>ruhig</translation>
    </message>
    <message>
        <source>background</source>
        <translation>Hintergrund</translation>
    </message>
    <message>
        <source>agree</source>
        <translation>stimmt überein</translation>
    </message>
    <message>
        <source>served from cache</source>
        <translation>aus dem Cache</translation>
    </message>
    <message>
        <source>write-back pending</source>
        <translation>Zurückschreiben ausstehend</translation>
    </message>
    <message>
        <source>other traffic</source>
        <translation>fremder Verkehr</translation>
    </message>
    <message>
        <source>amplified</source>
        <translation>verstärkt</translation>
    </message>
    <message>
        <source>file metadata</source>
        <translation>Dateimetadaten</translation>
    </message>
    <message>
        <source>target</source>
        <comment>a device&apos;s role</comment>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>disk</source>
        <comment>a device&apos;s role</comment>
        <translation>Platte</translation>
    </message>
    <message>
        <source>member</source>
        <comment>a device&apos;s role</comment>
        <translation>Mitglied</translation>
    </message>
    <message>
        <source>backing</source>
        <comment>a device&apos;s role</comment>
        <translation>Unterlage</translation>
    </message>
</context>
<context>
    <name>WriteBytesPlot</name>
    <message>
        <source>write MB/s</source>
        <translation>Schreiben MB/s</translation>
    </message>
    <message>
        <source>mean latency</source>
        <translation>mittlere Latenz</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>written (GiB)</source>
        <translation>geschrieben (GiB)</translation>
    </message>
    <message>
        <source>written (MiB)</source>
        <translation>geschrieben (MiB)</translation>
    </message>
    <message>
        <source>write latency (ms)</source>
        <translation>Schreiblatenz (ms)</translation>
    </message>
    <message>
        <source>write latency (µs)</source>
        <translation>Schreiblatenz (µs)</translation>
    </message>
    <message>
        <source>Write cliff %1</source>
        <translation>Schreibklippe %1</translation>
    </message>
    <message>
        <source>No write cliff in %1 written over %2 intervals</source>
        <translation>Keine Schreibklippe in %1 geschrieben über %2 Intervalle</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::AboutDialog</name>
    <message>
        <source>About IOPrism</source>
        <translation>Über IOPrism</translation>
    </message>
    <message>
        <source>IOPrism is free software: you can redistribute it and/or modify it under the terms of the GNU General Public License as published by the Free Software Foundation, either version 3 of the License, or (at your option) any later version (GPL-3.0-or-later). It comes with no warranty.</source>
        <translation>IOPrism ist freie Software: Sie können es unter den Bedingungen der GNU General Public License, wie von der Free Software Foundation veröffentlicht, weitergeben und/oder verändern, entweder gemäß Version 3 der Lizenz oder (nach Ihrer Wahl) jeder späteren Version (GPL-3.0-or-later). Es gibt keine Gewährleistung.</translation>
    </message>
    <message>
        <source>The GNU GPL, version 3</source>
        <translation>Die GNU GPL, Version 3</translation>
    </message>
    <message>
        <source>The licence and copyright as installed</source>
        <translation>Lizenz und Copyright, wie installiert</translation>
    </message>
    <message>
        <source>A storage benchmark: Iometer&apos;s workloads through native asynchronous I/O, live latency percentiles, and the device&apos;s own counters beside the application&apos;s.</source>
        <translation>Ein Speicher-Benchmark: die Lasten von Iometer über natives asynchrones I⁠/⁠O, Latenzperzentile live und die eigenen Zähler des Geräts neben denen der Anwendung.</translation>
    </message>
    <message>
        <source>Homepage: %1</source>
        <translation>Homepage: %1</translation>
    </message>
    <message>
        <source>Build information</source>
        <translation>Build-Informationen</translation>
    </message>
    <message>
        <source>The facts of this build: include them in a bug report</source>
        <translation>Die Daten dieses Builds: bitte in Fehlerberichte aufnehmen</translation>
    </message>
    <message>
        <source>&amp;Copy build information</source>
        <translation>Build-Informationen &amp;kopieren</translation>
    </message>
    <message>
        <source>Copy the build information to the clipboard, for a bug report</source>
        <translation>Die Build-Informationen für einen Fehlerbericht in die Zwischenablage kopieren</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::AssignedSpecsModel</name>
    <message>
        <source>Step %1 of the run for this worker</source>
        <translation>Schritt %1 des Laufs für diesen Worker</translation>
    </message>
    <message>
        <source>Access specification</source>
        <translation>Zugriffsspezifikation</translation>
    </message>
    <message>
        <source>Step number</source>
        <translation>Schrittnummer</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::ComparePage</name>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>Mittlere Latenz</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>&amp;Baseline:</source>
        <translation>&amp;Bezugslauf:</translation>
    </message>
    <message>
        <source>The run the others are measured against: their changes are relative to its figures</source>
        <translation>Der Lauf, an dem die anderen gemessen werden: ihre Änderungen beziehen sich auf seine Zahlen</translation>
    </message>
    <message>
        <source>How many steps or points the runs share, and how many only some of them have</source>
        <translation>Wie viele Schritte oder Punkte alle Läufe gemeinsam haben und wie viele nur einige</translation>
    </message>
    <message>
        <source>Each run&apos;s IOPS in its own colour: over the swept parameter when every run is a series of it, else over the run&apos;s time</source>
        <translation>Die IOPS jedes Laufs in eigener Farbe: über dem variierten Parameter, wenn jeder Lauf eine Serie davon ist, sonst über der Laufzeit</translation>
    </message>
    <message>
        <source>What differs between the runs&apos; setups: profile fields, engine, cache mode, kernel and OS, devices, IOPrism version</source>
        <translation>Was sich in den Aufbauten der Läufe unterscheidet: Profilfelder, Engine, Cache-Modus, Kernel und Betriebssystem, Geräte, IOPrism-Version</translation>
    </message>
    <message numerus="yes">
        <source>%n runs</source>
        <translation>
            <numerusform>%n Lauf</numerusform>
            <numerusform>%n Läufe</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in every run</source>
        <translation>
            <numerusform>%n in jedem Lauf</numerusform>
            <numerusform>%n in jedem Lauf</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n only in some</source>
        <translation>
            <numerusform>%n nur in einigen</numerusform>
            <numerusform>%n nur in einigen</numerusform>
        </translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>Zeit (s)</translation>
    </message>
    <message>
        <source>Step or point</source>
        <translation>Schritt oder Punkt</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>not in this run</source>
        <translation>nicht in diesem Lauf</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>Bezug</translation>
    </message>
    <message>
        <source>no baseline</source>
        <translation>kein Bezug</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>Unterschied</translation>
    </message>
    <message>
        <source>Export &amp;Report…</source>
        <translation>Be&amp;richt exportieren…</translation>
    </message>
    <message>
        <source>Save this comparison as one HTML file that opens in any browser: the runs, what differs, the curves and the delta table</source>
        <translation>Diesen Vergleich als eine HTML-Datei speichern, die sich in jedem Browser öffnen lässt: die Läufe, die Unterschiede, die Kurven und die Differenztabelle</translation>
    </message>
    <message>
        <source>Files/s</source>
        <comment>files opened per second</comment>
        <translation>Dateien/s</translation>
    </message>
    <message>
        <source>Every step or series point in each run, and its change against the baseline: green is better, red is worse (higher IOPS, MB/s and files opened per second are better, higher latency is worse)</source>
        <translation>Jeder Schritt oder Serienpunkt in jedem Lauf und seine Änderung gegenüber dem Bezugslauf: grün ist besser, rot ist schlechter (mehr IOPS, MB/s und geöffnete Dateien pro Sekunde sind besser, mehr Latenz ist schlechter)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::DataPatternEditor</name>
    <message>
        <source>worker&apos;s</source>
        <translation>des Workers</translation>
    </message>
    <message>
        <source>full random</source>
        <translation>voll zufällig</translation>
    </message>
    <message>
        <source>pseudo-random</source>
        <translation>pseudozufällig</translation>
    </message>
    <message>
        <source>repeating byte</source>
        <translation>wiederholtes Byte</translation>
    </message>
    <message>
        <source>zeros</source>
        <translation>Nullen</translation>
    </message>
    <message>
        <source>compressible</source>
        <translation>komprimierbar</translation>
    </message>
    <message>
        <source>What writes contain. Full random defeats compression and deduplication; zeros and repeating bytes do not.</source>
        <translation>Was Schreibvorgänge enthalten. Voll zufällige Daten lassen sich weder komprimieren noch deduplizieren; Nullen und wiederholte Bytes schon.</translation>
    </message>
    <message>
        <source>The byte value every write repeats</source>
        <translation>Der Bytewert, den jeder Schreibvorgang wiederholt</translation>
    </message>
    <message>
        <source>Compresses to about this share of its size (1 to 99 %)</source>
        <translation>Lässt sich auf etwa diesen Anteil seiner Größe komprimieren (1 bis 99 %)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::DistributionEditor</name>
    <message>
        <source>uniform</source>
        <translation>gleichverteilt</translation>
    </message>
    <message>
        <source>zipf</source>
        <translation>Zipf</translation>
    </message>
    <message>
        <source>pareto</source>
        <translation>Pareto</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>normalverteilt</translation>
    </message>
    <message>
        <source>hot zones</source>
        <translation>Hot Zones</translation>
    </message>
    <message>
        <source>How random offsets spread over the region (fio&apos;s random_distribution)</source>
        <translation>Wie sich zufällige Offsets über den Bereich verteilen (random_distribution von fio)</translation>
    </message>
    <message>
        <source>access%:region% ..., e.g. 80:20 20:80</source>
        <translation>Zugriff%:Bereich% ..., z. B. 80:20 20:80</translation>
    </message>
    <message>
        <source>Hot zones in order from offset 0: share of accesses : share of the region, each summing to 100</source>
        <translation>Hot Zones der Reihe nach ab Offset 0: Anteil der Zugriffe : Anteil des Bereichs, jeweils in Summe 100</translation>
    </message>
    <message>
        <source>Zipf theta: above 0, not 1; larger = more skewed</source>
        <translation>Zipf-Theta: über 0, nicht 1; größer = schiefer</translation>
    </message>
    <message>
        <source>Pareto h: between 0 and 1; smaller = more skewed</source>
        <translation>Pareto-h: zwischen 0 und 1; kleiner = schiefer</translation>
    </message>
    <message>
        <source>Standard deviation, % of the region, centred on it</source>
        <translation>Standardabweichung in % des Bereichs, um dessen Mitte</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::FieldMarks</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::FilesModel</name>
    <message>
        <source>%L1 connections (opened, used and closed) in %2 s</source>
        <translation>%L1 Verbindungen (geöffnet, genutzt und geschlossen) in %2 s</translation>
    </message>
    <message>
        <source>%L1 files opened in %2 s</source>
        <translation>%L1 Dateien geöffnet in %2 s</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Open to close</source>
        <translation>Öffnen bis Schließen</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Ebene</translation>
    </message>
    <message>
        <source>Files opened/s</source>
        <translation>Geöffnete Dateien/s</translation>
    </message>
    <message>
        <source>Connections/s</source>
        <translation>Verbindungen/s</translation>
    </message>
    <message>
        <source>Opened/s</source>
        <translation>Geöffnet/s</translation>
    </message>
    <message>
        <source>Open mean</source>
        <translation>Öffnen Mittel</translation>
    </message>
    <message>
        <source>Open p99</source>
        <translation>Öffnen p99</translation>
    </message>
    <message>
        <source>Open max</source>
        <translation>Öffnen max.</translation>
    </message>
    <message>
        <source>Close mean</source>
        <translation>Schließen Mittel</translation>
    </message>
    <message>
        <source>Close p99</source>
        <translation>Schließen p99</translation>
    </message>
    <message>
        <source>Close max</source>
        <translation>Schließen max.</translation>
    </message>
    <message>
        <source>%1 mean</source>
        <translation>%1 Mittel</translation>
    </message>
    <message>
        <source>%1 p99</source>
        <translation>%1 p99</translation>
    </message>
    <message>
        <source>%1 max</source>
        <translation>%1 max.</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>All, each worker, each target that opened and closed files</source>
        <translation>Alle, jeder Worker, jedes Ziel, das Dateien geöffnet und geschlossen hat</translation>
    </message>
    <message>
        <source>Files opened per second: on a file tree each operation opens a file, does one I/O on it and closes it</source>
        <translation>Geöffnete Dateien pro Sekunde: in einem Dateibaum öffnet jede Operation eine Datei, führt eine I⁠/⁠O darauf aus und schließt sie</translation>
    </message>
    <message>
        <source>Iometer&apos;s &quot;Connections per Second&quot;: connections (an open, transactions per connection transactions, a close) that ended per second</source>
        <translation>„Connections per Second“ von Iometer: Verbindungen (ein Öffnen, so viele Transaktionen wie Transaktionen je Verbindung, ein Schließen), die pro Sekunde endeten</translation>
    </message>
    <message>
        <source>Files (a tree&apos;s) or targets (the connection rate&apos;s) opened per second</source>
        <translation>Geöffnete Dateien (eines Baums) oder Ziele (der Verbindungsrate) pro Sekunde</translation>
    </message>
    <message>
        <source>Time to open a file: the file system&apos;s lookup and open, on IOPrism&apos;s own clock (p99 within 0.8 %, max exact)</source>
        <translation>Zeit zum Öffnen einer Datei: Suche und Öffnen im Dateisystem, mit IOPrisms eigener Uhr gemessen (p99 auf 0,8 % genau, Maximum exakt)</translation>
    </message>
    <message>
        <source>Time to close a file (p99 within 0.8 %, max exact)</source>
        <translation>Zeit zum Schließen einer Datei (p99 auf 0,8 % genau, Maximum exakt)</translation>
    </message>
    <message>
        <source>The whole operation, from the start of the open to the end of the close: what an application opening a file for one I/O waits</source>
        <translation>Die ganze Operation vom Beginn des Öffnens bis zum Ende des Schließens: so lange wartet eine Anwendung, die eine Datei für eine I⁠/⁠O öffnet</translation>
    </message>
    <message>
        <source>Iometer&apos;s connection time: from the start of an open to the end of its close, with the transactions between them</source>
        <translation>Verbindungszeit von Iometer: vom Beginn eines Öffnens bis zum Ende seines Schließens, mit den Transaktionen dazwischen</translation>
    </message>
    <message>
        <source>From the start of an open to the end of its close: a tree&apos;s operation, or a connection with its transactions</source>
        <translation>Vom Beginn eines Öffnens bis zum Ende seines Schließens: die Operation eines Baums oder eine Verbindung mit ihren Transaktionen</translation>
    </message>
    <message>
        <source>Opens and closes that failed</source>
        <translation>Fehlgeschlagene Öffnen- und Schließen-Vorgänge</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::HistoryModel</name>
    <message>
        <source>complete</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>gescheitert</translation>
    </message>
    <message>
        <source>damaged: %1</source>
        <translation>beschädigt: %1</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 · engine %3 · IOPrism %4 · %n steps. Double-click to open it.</source>
        <translation>
            <numerusform>%1 · %2 · Engine %3 · IOPrism %4 · %n Schritt. Doppelklick öffnet ihn.</numerusform>
            <numerusform>%1 · %2 · Engine %3 · IOPrism %4 · %n Schritte. Doppelklick öffnet ihn.</numerusform>
        </translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Datum</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>Ziele</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>Mittlere Latenz</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ausgang</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Schlagwörter</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Your name for the run (double-click to edit)</source>
        <translation>Ihr Name für den Lauf (Doppelklick zum Bearbeiten)</translation>
    </message>
    <message>
        <source>Tags, separated by commas (double-click to edit)</source>
        <translation>Schlagwörter, durch Kommas getrennt (Doppelklick zum Bearbeiten)</translation>
    </message>
    <message>
        <source>Notes (double-click to edit)</source>
        <translation>Notizen (Doppelklick zum Bearbeiten)</translation>
    </message>
    <message>
        <source>The most notable device verdict of the run&apos;s steps</source>
        <translation>Das auffälligste Geräteurteil der Schritte des Laufs</translation>
    </message>
    <message>
        <source>When the run started (your time zone)</source>
        <translation>Wann der Lauf begann (Ihre Zeitzone)</translation>
    </message>
    <message>
        <source>Cannot save the name, tags or notes of %1: %2</source>
        <translation>Name, Schlagwörter oder Notizen von %1 können nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>best of %1: %2</source>
        <translation>bester von %1: %2</translation>
    </message>
    <message>
        <source>The figures of the run&apos;s only step, %1</source>
        <translation>Die Werte des einzigen Schritts des Laufs, %1</translation>
    </message>
    <message>
        <source>The figures of step %1, %2: of the run&apos;s %3 steps, the one with the most IOPS. Open the run for every step.</source>
        <translation>Die Werte von Schritt %1, %2: von den %3 Schritten des Laufs der mit den meisten IOPS. Den Lauf öffnen, um jeden Schritt zu sehen.</translation>
    </message>
    <message>
        <source>Figures of</source>
        <translation>Werte von</translation>
    </message>
    <message>
        <source>Of one step, named in Figures of: the run&apos;s only step, or of several the one with the most IOPS (never an average of unlike steps)</source>
        <translation>Von einem Schritt, genannt unter „Werte von“: dem einzigen Schritt des Laufs oder von mehreren dem mit den meisten IOPS (nie ein Mittel ungleicher Schritte)</translation>
    </message>
    <message>
        <source>Complete, stopped (by you, or a step cut short) or failed, with its reason</source>
        <translation>Vollständig, gestoppt (von Ihnen oder ein vorzeitig beendeter Schritt) oder fehlgeschlagen, mit dem Grund</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::HistoryPage</name>
    <message>
        <source>Filter: a name, profile, target, device, tag…</source>
        <translation>Filter: ein Name, Profil, Ziel, Gerät, Schlagwort…</translation>
    </message>
    <message>
        <source>Show only the runs with this text in any column</source>
        <translation>Nur die Läufe zeigen, die diesen Text in einer Spalte enthalten</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Show the selected run on the Live, Results and Series pages as at its end (or double-click it)</source>
        <translation>Den gewählten Lauf auf den Seiten Live, Ergebnisse und Serie so zeigen wie an seinem Ende (oder Doppelklick)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Compare the selected runs (two or more): curves overlaid, the change of each figure against the first, and what differs between their setups</source>
        <translation>Die gewählten Läufe vergleichen (zwei oder mehr): Kurven übereinander, die Änderung jeder Zahl gegenüber dem ersten und was sich in ihren Aufbauten unterscheidet</translation>
    </message>
    <message>
        <source>Run Again…</source>
        <translation>Erneut ausführen…</translation>
    </message>
    <message>
        <source>Load the selected run&apos;s profile (as it ran, seeds included) to run it again</source>
        <translation>Das Profil des gewählten Laufs laden (wie es lief, mit Seeds), um es erneut auszuführen</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
    <message>
        <source>Delete the selected runs&apos; files from the library</source>
        <translation>Die Dateien der gewählten Läufe aus der Bibliothek löschen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>List the library&apos;s folder again (runs the command line saved since appear)</source>
        <translation>Den Ordner der Bibliothek neu einlesen (seither von der Kommandozeile gespeicherte Läufe erscheinen)</translation>
    </message>
    <message>
        <source>Every run kept in the library. Double-click a run to open it, or its name, tags or notes to edit them; select several to compare.</source>
        <translation>Jeder in der Bibliothek aufbewahrte Lauf. Doppelklick auf einen Lauf öffnet ihn, auf Name, Schlagwörter oder Notizen bearbeitet sie; mehrere wählen zum Vergleichen.</translation>
    </message>
    <message>
        <source>Where the runs are kept; the command line saves there too</source>
        <translation>Wo die Läufe aufbewahrt werden; die Kommandozeile speichert auch dort</translation>
    </message>
    <message>
        <source>Runs are not kept: saving runs to the history is off (Run menu), or this machine has no data folder.</source>
        <translation>Läufe werden nicht aufbewahrt: das Speichern im Verlauf ist aus (Menü Lauf), oder dieser Rechner hat keinen Datenordner.</translation>
    </message>
    <message>
        <source>Kept in %1</source>
        <translation>Aufbewahrt in %1</translation>
    </message>
    <message>
        <source>Cannot delete %1: %2</source>
        <translation>%1 kann nicht gelöscht werden: %2</translation>
    </message>
    <message>
        <source>Delete runs?</source>
        <translation>Läufe löschen?</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) from the history? Their results files are removed.</source>
        <translation>
            <numerusform>%n Lauf aus dem Verlauf löschen? Seine Ergebnisdatei wird entfernt.</numerusform>
            <numerusform>%n Läufe aus dem Verlauf löschen? Ihre Ergebnisdateien werden entfernt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::LivePage</name>
    <message>
        <source>Idle: press Start (F5) to run the profile</source>
        <translation>Bereit: Start (F5) führt das Profil aus</translation>
    </message>
    <message>
        <source>The step running now and its phase</source>
        <translation>Der laufende Schritt und seine Phase</translation>
    </message>
    <message>
        <source>I/O in flight for longer than the stall threshold: the device is not completing I/O (a frozen file system, a failing or disconnected device?). Its age counts in the maximum latency; Stop waits for it until the stop deadline, Stop twice does not wait.</source>
        <translation>I⁠/⁠O ist länger als die Hänger-Schwelle unterwegs: Das Gerät schließt kein I⁠/⁠O ab (ein eingefrorenes Dateisystem, ein defektes oder getrenntes Gerät?). Sein Alter zählt in die maximale Latenz; Stopp wartet darauf bis zur Stopp-Frist, zweimal Stopp wartet nicht.</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>Folgen</translation>
    </message>
    <message>
        <source>Keep the newest sample in view. Dragging or zooming a plot pauses this; click here or double-click a plot to resume.</source>
        <translation>Den neuesten Messwert im Blick behalten. Ziehen oder Zoomen in einem Diagramm hält das an; ein Klick hier oder ein Doppelklick in ein Diagramm setzt es fort.</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>I/Os per second, reads and writes, last interval</source>
        <translation>I⁠/⁠Os pro Sekunde, Lesen und Schreiben, letztes Intervall</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>Read throughput, last interval (MB = 10^6 bytes)</source>
        <translation>Lesedurchsatz, letztes Intervall (MB = 10^6 Byte)</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>Write throughput, last interval (MB = 10^6 bytes)</source>
        <translation>Schreibdurchsatz, letztes Intervall (MB = 10^6 Byte)</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>Mittlere Latenz</translation>
    </message>
    <message>
        <source>Mean completion time, last interval</source>
        <translation>Mittlere Abschlusszeit, letztes Intervall</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>99th percentile completion time, last interval</source>
        <translation>99. Perzentil der Abschlusszeit, letztes Intervall</translation>
    </message>
    <message>
        <source>CPU busy</source>
        <translation>CPU belegt</translation>
    </message>
    <message>
        <source>Busy CPU time, % of all CPUs of the machine</source>
        <translation>Belegte CPU-Zeit, % aller CPUs des Rechners</translation>
    </message>
    <message>
        <source>no device counters</source>
        <translation>keine Gerätezähler</translation>
    </message>
    <message>
        <source>No run yet</source>
        <translation>Noch kein Lauf</translation>
    </message>
    <message numerus="yes">
        <source>Stalled: %n I/Os in flight for %1</source>
        <translation>
            <numerusform>Hängt: %n I⁠/⁠O seit %1 unterwegs</numerusform>
            <numerusform>Hängt: %n I⁠/⁠Os seit %1 unterwegs</numerusform>
        </translation>
    </message>
    <message>
        <source>Device: %1</source>
        <translation>Gerät: %1</translation>
    </message>
    <message>
        <source>%1 · ramp-up</source>
        <comment>a big figure&apos;s caption during ramp-up</comment>
        <translation>%1 · Anlauf</translation>
    </message>
    <message>
        <source>Files opened in the last interval (a file tree opens one per operation; Iometer&apos;s connection rate reopens its targets) and the mean time of each open, close and whole open-to-close</source>
        <translation>Im letzten Intervall geöffnete Dateien (ein Dateibaum öffnet eine je Operation; die Verbindungsrate von Iometer öffnet ihre Ziele neu) und die mittlere Zeit für Öffnen, Schließen und das ganze Öffnen bis Schließen</translation>
    </message>
    <message>
        <source>Files: %1 opened/s · open %2 · close %3 · open to close %4 (means)</source>
        <translation>Dateien: %1 geöffnet/s · Öffnen %2 · Schließen %3 · Öffnen bis Schließen %4 (Mittelwerte)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::LivePlots</name>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>device read</source>
        <translation>Gerät Lesen</translation>
    </message>
    <message>
        <source>device write</source>
        <translation>Gerät Schreiben</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>I/O per second</source>
        <translation>I/O pro Sekunde</translation>
    </message>
    <message>
        <source>total</source>
        <translation>gesamt</translation>
    </message>
    <message>
        <source>device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>p99.9</source>
        <translation>p99,9</translation>
    </message>
    <message>
        <source>device await</source>
        <translation>Gerät await</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>% of all CPUs</source>
        <translation>% aller CPUs</translation>
    </message>
    <message>
        <source>user</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>system</source>
        <translation>System</translation>
    </message>
    <message>
        <source>iowait</source>
        <translation>iowait</translation>
    </message>
    <message>
        <source>device %util</source>
        <translation>Gerät %util</translation>
    </message>
    <message>
        <source>%1 over time. Drag to pan, wheel to zoom (both pause following), double-click to follow the newest sample again; right-click to save.</source>
        <translation>%1 über die Zeit. Ziehen verschiebt, das Mausrad zoomt (beides hält das Folgen an), ein Doppelklick folgt wieder dem neuesten Messwert; Rechtsklick zum Speichern.</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>Zeit (s)</translation>
    </message>
    <message>
        <source>t = %1 s</source>
        <translation>t = %1 s</translation>
    </message>
    <message>
        <source>Save %1 plot as PNG or PDF…</source>
        <translation>Diagramm %1 als PNG oder PDF speichern…</translation>
    </message>
    <message>
        <source>Follow the newest sample</source>
        <translation>Dem neuesten Messwert folgen</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>Step %1 (ramp-up)</source>
        <translation>Schritt %1 (Anlauf)</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <source>Show the latency heat map</source>
        <translation>Latenz-Heatmap zeigen</translation>
    </message>
    <message>
        <source>Colour each interval&apos;s I/Os by latency behind the percentiles (brighter: more I/Os, on a log scale)</source>
        <translation>Die I⁠/⁠Os jedes Intervalls hinter den Perzentilen nach Latenz einfärben (heller: mehr I⁠/⁠Os, auf logarithmischer Skala)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln I/O(s) in %1 – %2</source>
        <translation>
            <numerusform>%Ln I⁠/⁠O in %1 – %2</numerusform>
            <numerusform>%Ln I⁠/⁠Os in %1 – %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::MainWindow</name>
    <message>
        <source>idle</source>
        <translation>bereit</translation>
    </message>
    <message>
        <source>preparing</source>
        <translation>Vorbereitung</translation>
    </message>
    <message>
        <source>ramp-up</source>
        <translation>Anlauf</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>hält an</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>&amp;Targets</source>
        <translation>&amp;Ziele</translation>
    </message>
    <message>
        <source>Access &amp;Specifications</source>
        <translation>Zugriffs&amp;spezifikationen</translation>
    </message>
    <message>
        <source>Test Set&amp;up</source>
        <translation>Test&amp;aufbau</translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation>&amp;Live</translation>
    </message>
    <message>
        <source>&amp;Results</source>
        <translation>&amp;Ergebnisse</translation>
    </message>
    <message>
        <source>Ser&amp;ies</source>
        <translation>Se&amp;rie</translation>
    </message>
    <message>
        <source>Disks, partitions and test files of the selected worker</source>
        <translation>Festplatten, Partitionen und Testdateien des gewählten Workers</translation>
    </message>
    <message>
        <source>Access specifications and the selected worker&apos;s run order</source>
        <translation>Zugriffsspezifikationen und die Laufreihenfolge des gewählten Workers</translation>
    </message>
    <message>
        <source>Run time, ramp-up, sampling interval, seed, Iometer&apos;s cycling, series, engine</source>
        <translation>Laufzeit, Anlauf, Messintervall, Seed, Iometers Zyklen, Serien, Engine</translation>
    </message>
    <message>
        <source>Live figures and plots of the running test</source>
        <translation>Live-Zahlen und -Diagramme des laufenden Tests</translation>
    </message>
    <message>
        <source>Results of the last run, step by step</source>
        <translation>Ergebnisse des letzten Laufs, Schritt für Schritt</translation>
    </message>
    <message>
        <source>The series&apos; curves or heat map over the swept parameters, point by point</source>
        <translation>Kurven oder Heatmap der Serie über die variierten Parameter, Punkt für Punkt</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>Topologie</translation>
    </message>
    <message>
        <source>This host, its workers and their targets</source>
        <translation>Dieser Rechner, seine Worker und deren Ziele</translation>
    </message>
    <message>
        <source>Apply a built-in set of specs</source>
        <translation>Einen eingebauten Satz Spezifikationen anwenden</translation>
    </message>
    <message>
        <source>Test file location</source>
        <translation>Ort der Testdatei</translation>
    </message>
    <message>
        <source>Test files (*.dat *.tst);;All files (*)</source>
        <translation>Testdateien (*.dat *.tst);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save the %1 plot</source>
        <translation>Diagramm %1 speichern</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG-Bild (*.png);;PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <source>Save the %1</source>
        <translation>%1 speichern</translation>
    </message>
    <message>
        <source>Save the latency histogram</source>
        <translation>Latenzhistogramm speichern</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>A new profile: one worker per CPU, Iometer&apos;s default spec</source>
        <translation>Ein neues Profil: ein Worker je CPU, die Standardspezifikation von Iometer</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Öffnen…</translation>
    </message>
    <message>
        <source>Open a profile (.json) or import an Iometer configuration (.icf)</source>
        <translation>Ein Profil (.json) öffnen oder eine Iometer-Konfiguration (.icf) importieren</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save the profile</source>
        <translation>Das Profil speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>Save the profile as .json, or export it as an Iometer .icf</source>
        <translation>Das Profil als .json speichern oder als Iometer-.icf exportieren</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Start</translation>
    </message>
    <message>
        <source>Run the profile</source>
        <translation>Das Profil ausführen</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>Sto&amp;pp</translation>
    </message>
    <message>
        <source>Stop the run; what was measured is kept. In-flight I/O is waited for until the stop deadline; press Stop again to stop waiting for a device that does not complete it</source>
        <translation>Den Lauf anhalten; das Gemessene bleibt erhalten. Auf laufendes I⁠/⁠O wird bis zur Stopp-Frist gewartet; erneut Stopp drücken, um nicht länger auf ein Gerät zu warten, das es nicht abschließt</translation>
    </message>
    <message>
        <source>Results &amp;CSV (Iometer layout)…</source>
        <translation>Ergebnisse als &amp;CSV (Iometer-Layout)…</translation>
    </message>
    <message>
        <source>Save the results as an Iometer-layout CSV file</source>
        <translation>Die Ergebnisse als CSV-Datei im Iometer-Layout speichern</translation>
    </message>
    <message>
        <source>&amp;Time series CSV…</source>
        <translation>&amp;Zeitreihe als CSV…</translation>
    </message>
    <message>
        <source>Save every interval of every scope as one CSV row</source>
        <translation>Jedes Intervall jeder Ebene als eine CSV-Zeile speichern</translation>
    </message>
    <message>
        <source>Results &amp;JSON…</source>
        <translation>Ergebnisse als &amp;JSON…</translation>
    </message>
    <message>
        <source>Save everything the run produced as JSON</source>
        <translation>Alles, was der Lauf ergeben hat, als JSON speichern</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Quit IOPrism (the profile is kept for next time)</source>
        <translation>IOPrism beenden (das Profil bleibt für das nächste Mal erhalten)</translation>
    </message>
    <message>
        <source>Export results CSV</source>
        <translation>Ergebnisse als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Export time series CSV</source>
        <translation>Zeitreihe als CSV exportieren</translation>
    </message>
    <message>
        <source>Export results JSON</source>
        <translation>Ergebnisse als JSON exportieren</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-Dateien (*.json)</translation>
    </message>
    <message>
        <source>%1 plot…</source>
        <translation>Diagramm %1…</translation>
    </message>
    <message>
        <source>Save the live %1 plot as PNG or PDF</source>
        <translation>Das Live-Diagramm %1 als PNG oder PDF speichern</translation>
    </message>
    <message>
        <source>Latency histogram…</source>
        <translation>Latenzhistogramm…</translation>
    </message>
    <message>
        <source>Save the results&apos; latency histogram as PNG or PDF</source>
        <translation>Das Latenzhistogramm der Ergebnisse als PNG oder PDF speichern</translation>
    </message>
    <message>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <source>Save the %1 plot as PNG or PDF</source>
        <translation>Diagramm %1 als PNG oder PDF speichern</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>&amp;Presets</source>
        <translation>&amp;Vorlagen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Lauf</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Follow the newest sample</source>
        <translation>Dem neuesten Messwert &amp;folgen</translation>
    </message>
    <message>
        <source>Keep the newest interval in view on the live plots</source>
        <translation>Das neueste Intervall in den Live-Diagrammen im Blick behalten</translation>
    </message>
    <message>
        <source>Targets</source>
        <translation>Ziele</translation>
    </message>
    <message>
        <source>Access Specifications</source>
        <translation>Zugriffsspezifikationen</translation>
    </message>
    <message>
        <source>Test Setup</source>
        <translation>Testaufbau</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <source>Series</source>
        <translation>Serie</translation>
    </message>
    <message>
        <source>The series&apos; curves or heat map (after a series run)</source>
        <translation>Kurven oder Heatmap der Serie (nach einem Serienlauf)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>Open the user guide, which describes every page and control</source>
        <translation>Das Benutzerhandbuch öffnen, das jede Seite und jedes Bedienelement beschreibt</translation>
    </message>
    <message>
        <source>What&apos;s &amp;This?</source>
        <translation>&amp;Direkthilfe</translation>
    </message>
    <message>
        <source>&amp;About IOPrism</source>
        <translation>&amp;Über IOPrism</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <source>Presets</source>
        <translation>Vorlagen</translation>
    </message>
    <message>
        <source>Apply a built-in set of specs (CrystalDiskMark, Iometer, workload patterns); your workers and targets are kept</source>
        <translation>Einen eingebauten Satz Spezifikationen anwenden (CrystalDiskMark, Iometer, Lastmuster); Ihre Worker und Ziele bleiben erhalten</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Save the results as CSV or JSON, or a plot as PNG or PDF</source>
        <translation>Die Ergebnisse als CSV oder JSON oder ein Diagramm als PNG oder PDF speichern</translation>
    </message>
    <message>
        <source>The tools the window is too narrow to show</source>
        <translation>Die Werkzeuge, für die das Fenster zu schmal ist</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>What the run is doing: preparing, ramp-up, running, stopping</source>
        <translation>Was der Lauf gerade tut: Vorbereitung, Anlauf, Lauf, Anhalten</translation>
    </message>
    <message>
        <source>Progress of the whole run (all steps)</source>
        <translation>Fortschritt des ganzen Laufs (alle Schritte)</translation>
    </message>
    <message>
        <source>The last session&apos;s profile could not be read; starting from the quick preset.</source>
        <translation>Das Profil der letzten Sitzung war nicht lesbar; es geht mit der Schnellvorlage los.</translation>
    </message>
    <message>
        <source>data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>%1[*] — IOPrism</source>
        <translation>%1[*] — IOPrism</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>The preset &quot;%1&quot; cannot be loaded.</source>
        <translation>Die Vorlage „%1“ lässt sich nicht laden.</translation>
    </message>
    <message>
        <source>Applied the preset &quot;%1&quot;: %2; your workers and targets are kept.</source>
        <translation>Vorlage „%1“ angewendet: %2; Ihre Worker und Ziele bleiben erhalten.</translation>
    </message>
    <message numerus="yes">
        <source>%n specs</source>
        <translation>
            <numerusform>%n Spezifikation</numerusform>
            <numerusform>%n Spezifikationen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2.</source>
        <translation>%1 lässt sich nicht öffnen: %2.</translation>
    </message>
    <message numerus="yes">
        <source>%n problems</source>
        <translation>
            <numerusform>%n Problem</numerusform>
            <numerusform>%n Probleme</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was opened with %2.</source>
        <translation>%1 wurde mit %2 geöffnet.</translation>
    </message>
    <message numerus="yes">
        <source>%n warnings</source>
        <translation>
            <numerusform>%n Warnung</numerusform>
            <numerusform>%n Warnungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved as an Iometer file: %1 the .icf format cannot carry were left out (they stay in this window; save as .json to keep them).</source>
        <translation>Als Iometer-Datei gespeichert: %1, die das .icf-Format nicht aufnehmen kann, wurden weggelassen (sie bleiben in diesem Fenster; als .json speichern, um sie zu behalten).</translation>
    </message>
    <message numerus="yes">
        <source>%n settings</source>
        <translation>
            <numerusform>%n Einstellung</numerusform>
            <numerusform>%n Einstellungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1 lässt sich nicht schreiben.</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The profile has changes that are not saved. Discard them?</source>
        <translation>Das Profil hat ungespeicherte Änderungen. Verwerfen?</translation>
    </message>
    <message>
        <source>Open a profile</source>
        <translation>Ein Profil öffnen</translation>
    </message>
    <message>
        <source>Profiles (*.json *.icf);;IOPrism profiles (*.json);;Iometer configurations (*.icf);;All files (*)</source>
        <translation>Profile (*.json *.icf);;IOPrism-Profile (*.json);;Iometer-Konfigurationen (*.icf);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>IOPrism profile (*.json)</source>
        <translation>IOPrism-Profil (*.json)</translation>
    </message>
    <message>
        <source>Iometer configuration (*.icf)</source>
        <translation>Iometer-Konfiguration (*.icf)</translation>
    </message>
    <message>
        <source>mounted at %1</source>
        <translation>eingehängt unter %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Writing to a raw device is refused while it is in use: unmount it first, or untick it.</source>
        <translation>Auf ein Rohgerät wird nicht geschrieben, solange es benutzt wird: Erst aushängen oder das Häkchen entfernen.</translation>
    </message>
    <message>
        <source>Write to raw devices?</source>
        <translation>Auf Rohgeräte schreiben?</translation>
    </message>
    <message>
        <source>The test writes directly to:&lt;br&gt;%1&lt;br&gt;&lt;br&gt;Everything stored on %2 will be destroyed. Continue?</source>
        <translation>Der Test schreibt direkt auf:&lt;br&gt;%1&lt;br&gt;&lt;br&gt;Alles, was auf %2 gespeichert ist, wird zerstört. Fortfahren?</translation>
    </message>
    <message>
        <source>this device</source>
        <translation>diesem Gerät</translation>
    </message>
    <message>
        <source>these devices</source>
        <translation>diesen Geräten</translation>
    </message>
    <message>
        <source>Destroy the data and run</source>
        <translation>Daten zerstören und starten</translation>
    </message>
    <message>
        <source>Preparing the targets…</source>
        <translation>Die Ziele werden vorbereitet…</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3 — %4</source>
        <translation>Schritt %1 von %2: %3 — %4</translation>
    </message>
    <message>
        <source>Step %1: %2 — finishing in-flight I/O</source>
        <translation>Schritt %1: %2 — laufendes I⁠/⁠O wird abgeschlossen</translation>
    </message>
    <message>
        <source>Preparing %1: %2 %</source>
        <translation>Vorbereitung von %1: %2 %</translation>
    </message>
    <message>
        <source>Preparing the test file %1 (%2 of %3)</source>
        <translation>Die Testdatei %1 wird vorbereitet (%2 von %3)</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>Vorbereitung</translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3 · ramp-up %4 of %5</source>
        <translation>Schritt %1 von %2 · %3 · Anlauf %4 von %5</translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3 · running %4 of %5</source>
        <translation>Schritt %1 von %2 · %3 · läuft %4 von %5</translation>
    </message>
    <message>
        <source>Step %1 · %2 · running %3 (until stopped)</source>
        <translation>Schritt %1 · %2 · läuft %3 (bis Stopp)</translation>
    </message>
    <message>
        <source>notice: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <source>The run stopped with an error: %1</source>
        <translation>Der Lauf endete mit einem Fehler: %1</translation>
    </message>
    <message>
        <source>The run failed before measuring</source>
        <translation>Der Lauf ist vor dem Messen gescheitert</translation>
    </message>
    <message>
        <source>The run stopped with an error; the results cover what was measured</source>
        <translation>Der Lauf endete mit einem Fehler; die Ergebnisse umfassen das bis dahin Gemessene</translation>
    </message>
    <message>
        <source>Stopped: the results cover the time measured</source>
        <translation>Angehalten: die Ergebnisse umfassen die gemessene Zeit</translation>
    </message>
    <message>
        <source>Done: %1 measured</source>
        <translation>Fertig: %1 gemessen</translation>
    </message>
    <message numerus="yes">
        <source>%n steps</source>
        <translation>
            <numerusform>%n Schritt</numerusform>
            <numerusform>%n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>Idle · %1</source>
        <translation>Bereit · %1</translation>
    </message>
    <message>
        <source>The user guide is not installed. It is online at %1.</source>
        <translation>Das Benutzerhandbuch ist nicht installiert. Es steht online unter %1.</translation>
    </message>
    <message>
        <source>Looked for it in:
%1</source>
        <translation>Gesucht in:
%1</translation>
    </message>
    <message>
        <source>No program is set up to open the user guide, %1.</source>
        <translation>Kein Programm ist zum Öffnen des Benutzerhandbuchs %1 eingerichtet.</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>&amp;Remove Test Files After the Run</source>
        <translation>Testdateien nach dem Lauf &amp;entfernen</translation>
    </message>
    <message>
        <source>After each run, delete the test files IOPrism made (like the command line&apos;s --remove-test-files); the next run makes and fills them again. Files IOPrism did not make are never deleted.</source>
        <translation>Nach jedem Lauf die Testdateien löschen, die IOPrism angelegt hat (wie --remove-test-files der Kommandozeile); der nächste Lauf legt sie neu an und füllt sie. Dateien, die IOPrism nicht angelegt hat, werden nie gelöscht.</translation>
    </message>
    <message numerus="yes">
        <source>Stopping: waiting for the in-flight I/O to complete (gives up in %n s), then up to %1 s for the device&apos;s write-back; press Stop again to stop waiting</source>
        <translation>
            <numerusform>Anhalten: Warten auf den Abschluss des laufenden I⁠/⁠O (Aufgabe in %n s), dann bis zu %1 s auf das Zurückschreiben des Geräts; erneut Stopp beendet das Warten</numerusform>
            <numerusform>Anhalten: Warten auf den Abschluss des laufenden I⁠/⁠O (Aufgabe in %n s), dann bis zu %1 s auf das Zurückschreiben des Geräts; erneut Stopp beendet das Warten</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop waiting for in-flight I/O and the device&apos;s write-back: the results are reported now, any I/O still in flight is named in them</source>
        <translation>Nicht länger auf laufendes I⁠/⁠O und das Zurückschreiben des Geräts warten: Die Ergebnisse kommen sofort, noch laufendes I⁠/⁠O wird darin genannt</translation>
    </message>
    <message>
        <source>failed at %p%</source>
        <translation>gescheitert bei %p%</translation>
    </message>
    <message>
        <source>The run stopped with an error at this point of the run</source>
        <translation>Der Lauf endete an dieser Stelle mit einem Fehler</translation>
    </message>
    <message>
        <source>stopped at %p%</source>
        <translation>angehalten bei %p%</translation>
    </message>
    <message>
        <source>The run was stopped at this point; the results cover the time measured</source>
        <translation>Der Lauf wurde an dieser Stelle angehalten; die Ergebnisse umfassen die gemessene Zeit</translation>
    </message>
    <message>
        <source>The run measured every step</source>
        <translation>Der Lauf hat jeden Schritt gemessen</translation>
    </message>
    <message numerus="yes">
        <source>%n test file(s) could not be removed after the run</source>
        <translation>
            <numerusform>%n Testdatei ließ sich nach dem Lauf nicht entfernen</numerusform>
            <numerusform>%n Testdateien ließen sich nach dem Lauf nicht entfernen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Removed %n test file(s) after the run</source>
        <translation>
            <numerusform>%n Testdatei nach dem Lauf entfernt</numerusform>
            <numerusform>%n Testdateien nach dem Lauf entfernt</numerusform>
        </translation>
    </message>
    <message>
        <source>The run failed before measuring; the Results page keeps the previous run&apos;s results</source>
        <translation>Der Lauf ist vor dem Messen gescheitert; die Seite Ergebnisse behält die Ergebnisse des vorigen Laufs</translation>
    </message>
    <message>
        <source>&amp;Report (HTML)…</source>
        <translation>&amp;Bericht (HTML)…</translation>
    </message>
    <message>
        <source>Save the run as one HTML file that opens in any browser: what ran, where, all steps, each step&apos;s table and the plots</source>
        <translation>Den Lauf als eine HTML-Datei speichern, die jeder Browser öffnet: was lief, wo, alle Schritte, die Tabelle jedes Schritts und die Diagramme</translation>
    </message>
    <message>
        <source>Export a report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <source>HTML files (*.html)</source>
        <translation>HTML-Dateien (*.html)</translation>
    </message>
    <message>
        <source>Add a test file</source>
        <translation>Testdatei hinzufügen</translation>
    </message>
    <message numerus="yes">
        <source>%1 already uses %n target(s): %2.</source>
        <translation>
            <numerusform>%1 verwendet bereits %n Ziel: %2.</numerusform>
            <numerusform>%1 verwendet bereits %n Ziele: %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Use %1 instead, or as one more target (the worker then spreads its I/O over all of them)?</source>
        <translation>%1 stattdessen verwenden oder als weiteres Ziel (der Worker verteilt sein I⁠/⁠O dann auf alle)?</translation>
    </message>
    <message>
        <source>Use only the new file</source>
        <translation>Nur die neue Datei verwenden</translation>
    </message>
    <message>
        <source>The worker&apos;s other targets are unticked</source>
        <translation>Die anderen Ziele des Workers werden abgewählt</translation>
    </message>
    <message>
        <source>Add as another target</source>
        <translation>Als weiteres Ziel hinzufügen</translation>
    </message>
    <message>
        <source>The worker uses the new file and its present targets</source>
        <translation>Der Worker verwendet die neue Datei und seine bisherigen Ziele</translation>
    </message>
    <message>
        <source>Re-point %1</source>
        <translation>%1 neu zuordnen</translation>
    </message>
    <message>
        <source>Where %1 points on this machine (the worker keeps the target and its settings):</source>
        <translation>Worauf %1 auf diesem Rechner zeigt (der Worker behält das Ziel und seine Einstellungen):</translation>
    </message>
    <message>
        <source>A disk, a partition or a test-file location of this machine, or a file you choose</source>
        <translation>Ein Datenträger, eine Partition oder ein Testdatei-Ort dieses Rechners oder eine Datei Ihrer Wahl</translation>
    </message>
    <message>
        <source>A test file elsewhere…</source>
        <translation>Eine Testdatei anderswo…</translation>
    </message>
    <message>
        <source>%1 now points at %2.</source>
        <translation>%1 zeigt jetzt auf %2.</translation>
    </message>
    <message>
        <source>Latency histogram of the step shown on the Results page</source>
        <translation>Latenzhistogramm des auf der Seite Ergebnisse gezeigten Schritts</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>&amp;Verlauf</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Vergleich</translation>
    </message>
    <message>
        <source>Every run kept: open, compare, rename, tag, annotate, delete, run again</source>
        <translation>Jeder aufbewahrte Lauf: öffnen, vergleichen, umbenennen, verschlagworten, kommentieren, löschen, erneut ausführen</translation>
    </message>
    <message>
        <source>Runs side by side: curves overlaid, the change of each figure, what differs</source>
        <translation>Läufe nebeneinander: Kurven übereinander, die Änderung jeder Zahl, was sich unterscheidet</translation>
    </message>
    <message>
        <source>&amp;Keep Every Run in the History</source>
        <translation>Jeden Lauf im &amp;Verlauf aufbewahren</translation>
    </message>
    <message>
        <source>Save each run&apos;s results (complete, stopped or failed) in the run library when it ends, where the History page and the command line&apos;s history list them</source>
        <translation>Die Ergebnisse jedes Laufs (vollständig, gestoppt oder gescheitert) an seinem Ende in der Laufbibliothek speichern, wo die Seite Verlauf und der Verlauf der Kommandozeile sie auflisten</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation>%1 lässt sich nicht öffnen: %2. {1 ?} {2?}</translation>
    </message>
    <message>
        <source>The run could not be kept in the history: %1</source>
        <translation>Der Lauf konnte nicht im Verlauf aufbewahrt werden: %1</translation>
    </message>
    <message>
        <source>Export it now (File › Export › Results JSON) to keep it.</source>
        <translation>Exportieren Sie ihn jetzt (Datei › Exportieren › Ergebnis-JSON), um ihn zu behalten.</translation>
    </message>
    <message>
        <source>A run is going on: open the results when it ends.</source>
        <translation>Ein Lauf ist im Gange: öffnen Sie die Ergebnisse, wenn er endet.</translation>
    </message>
    <message>
        <source>Opened: the run of %1 (%2)</source>
        <translation>Geöffnet: der Lauf vom %1 (%2)</translation>
    </message>
    <message>
        <source>Idle · opened %1</source>
        <translation>Bereit · %1 geöffnet</translation>
    </message>
    <message>
        <source>The profile of %1 is loaded, as it ran (seeds included): Start runs it again.</source>
        <translation>Das Profil von %1 ist geladen, wie es lief (mit Seeds): Start führt es erneut aus.</translation>
    </message>
    <message>
        <source>Choose two or more runs to compare.</source>
        <translation>Wählen Sie zwei oder mehr Läufe zum Vergleichen.</translation>
    </message>
    <message>
        <source>Folder for the file tree</source>
        <translation>Ordner für den Dateibaum</translation>
    </message>
    <message>
        <source>The file tree IOPrism made in %1 (%2) is used again.</source>
        <translation>Der Dateibaum, den IOPrism in %1 angelegt hat (%2), wird wiederverwendet.</translation>
    </message>
    <message>
        <source>The file tree goes in %1: IOPrism makes it before the first run.</source>
        <translation>Der Dateibaum kommt nach %1: IOPrism legt ihn vor dem ersten Lauf an.</translation>
    </message>
    <message>
        <source>Add a file tree</source>
        <translation>Dateibaum hinzufügen</translation>
    </message>
    <message>
        <source>Use only the new tree</source>
        <translation>Nur den neuen Baum verwenden</translation>
    </message>
    <message>
        <source>The worker uses the new tree and its present targets</source>
        <translation>Der Worker verwendet den neuen Baum und seine bisherigen Ziele</translation>
    </message>
    <message>
        <source>Export the comparison</source>
        <translation>Den Vergleich exportieren</translation>
    </message>
    <message>
        <source>IOPS of each run over the swept parameter</source>
        <translation>IOPS jedes Laufs über dem variierten Parameter</translation>
    </message>
    <message>
        <source>IOPS of each run over time</source>
        <translation>IOPS jedes Laufs über der Zeit</translation>
    </message>
    <message>
        <source>opening another run</source>
        <translation>dem Öffnen eines anderen Laufs</translation>
    </message>
    <message>
        <source>starting the next run</source>
        <translation>dem Start des nächsten Laufs</translation>
    </message>
    <message>
        <source>quitting</source>
        <translation>dem Beenden</translation>
    </message>
    <message>
        <source>starting a new profile</source>
        <translation>dem Anlegen eines neuen Profils</translation>
    </message>
    <message>
        <source>Results not saved</source>
        <translation>Ergebnisse nicht gespeichert</translation>
    </message>
    <message>
        <source>The results of the last run are not saved anywhere. Save them before %1?</source>
        <translation>Die Ergebnisse des letzten Laufs sind nirgends gespeichert. Vor %1 speichern?</translation>
    </message>
    <message>
        <source>They could not be kept in the history.</source>
        <translation>Sie konnten nicht im Verlauf aufbewahrt werden.</translation>
    </message>
    <message>
        <source>Run › Keep Every Run in the History is off.</source>
        <translation>Lauf › Jeden Lauf im Verlauf aufbewahren ist aus.</translation>
    </message>
    <message>
        <source>Saved as a results file, File › Open shows them again as they are now; discarded, they are lost.</source>
        <translation>Als Ergebnisdatei gespeichert, zeigt Datei › Öffnen sie wieder so, wie sie jetzt sind; verworfen, sind sie verloren.</translation>
    </message>
    <message>
        <source>Save Results…</source>
        <translation>Ergebnisse speichern…</translation>
    </message>
    <message>
        <source>Save the results as a results JSON file, then go on</source>
        <translation>Die Ergebnisse als Ergebnis-JSON-Datei speichern, dann fortfahren</translation>
    </message>
    <message>
        <source>Go on without the results</source>
        <translation>Ohne die Ergebnisse fortfahren</translation>
    </message>
    <message>
        <source>Keep the results and do nothing</source>
        <translation>Die Ergebnisse behalten und nichts tun</translation>
    </message>
    <message>
        <source>Save the results</source>
        <translation>Die Ergebnisse speichern</translation>
    </message>
    <message>
        <source>opening another file</source>
        <translation>dem Öffnen einer anderen Datei</translation>
    </message>
    <message>
        <source>Pre-initialising %1: %2 %</source>
        <translation>Vorinitialisierung von %1: %2 %</translation>
    </message>
    <message>
        <source>Pre-initialising %1 (%2 of %3 operations, not measured)</source>
        <translation>Vorinitialisierung von %1 (%2 von %3 Operationen, nicht gemessen)</translation>
    </message>
    <message>
        <source>Pre-initialising</source>
        <translation>Vorinitialisierung</translation>
    </message>
    <message numerus="yes">
        <source>The profile cannot run: %n field(s) hold text that is not a value (red fields show where).</source>
        <translation>
            <numerusform>Das Profil kann nicht laufen: %n Feld enthält Text, der kein Wert ist (rote Felder zeigen, wo).</numerusform>
            <numerusform>Das Profil kann nicht laufen: %n Felder enthalten Text, der kein Wert ist (rote Felder zeigen, wo).</numerusform>
        </translation>
    </message>
    <message>
        <source>Save as an Iometer file?</source>
        <translation>Als Iometer-Datei speichern?</translation>
    </message>
    <message>
        <source>%1 cannot carry %2 of this profile; saving over it leaves them out:&lt;br&gt;%3&lt;br&gt;&lt;br&gt;Save as an IOPrism profile (.json) to keep them?</source>
        <translation>%1 kann %2 dieses Profils nicht aufnehmen; beim Überschreiben fallen sie weg:&lt;br&gt;%3&lt;br&gt;&lt;br&gt;Als IOPrism-Profil (.json) speichern, um sie zu behalten?</translation>
    </message>
    <message>
        <source>Save as JSON…</source>
        <translation>Als JSON speichern…</translation>
    </message>
    <message>
        <source>Leave them out</source>
        <translation>Weglassen</translation>
    </message>
    <message>
        <source>The profile cannot run: %1</source>
        <translation>Das Profil kann nicht laufen: %1</translation>
    </message>
    <message>
        <source>The profile cannot run: %1 to fix (red cells show where), the first: %2</source>
        <translation>Das Profil kann nicht laufen: %1 zu beheben (rote Zellen zeigen, wo), das erste: %2</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>holds: %1</source>
        <translation>enthält: %1</translation>
    </message>
    <message>
        <source>Then the system asks for your permission to open it (udisks2).</source>
        <translation>Danach fragt das System Sie um Erlaubnis, es zu öffnen (udisks2).</translation>
    </message>
    <message>
        <source>Then the system asks for your permission to open the devices you may not open yourself (udisks2).</source>
        <translation>Danach fragt das System Sie um Erlaubnis, die Geräte zu öffnen, die Sie nicht selbst öffnen dürfen (udisks2).</translation>
    </message>
    <message>
        <source>Starts the run: the system asks for your permission, then the devices listed are overwritten</source>
        <translation>Startet den Lauf: Das System fragt Sie um Erlaubnis, dann werden die genannten Geräte überschrieben</translation>
    </message>
    <message>
        <source>Starts the run: the devices listed are overwritten</source>
        <translation>Startet den Lauf: Die genannten Geräte werden überschrieben</translation>
    </message>
    <message>
        <source>Cannot restart as administrator: the profile cannot be saved in %1</source>
        <translation>Neustart als Administrator nicht möglich: das Profil kann nicht in %1 gespeichert werden</translation>
    </message>
    <message>
        <source>IOPrism did not restart as administrator: %1</source>
        <translation>IOPrism wurde nicht als Administrator neu gestartet: %1</translation>
    </message>
    <message>
        <source>Only an administrator may open %1. IOPrism can restart as administrator, keeping this profile; Windows will ask for an administrator&apos;s consent first.</source>
        <translation>Nur ein Administrator darf %1 öffnen. IOPrism kann als Administrator neu starten und behält dieses Profil; Windows fragt zuvor nach der Zustimmung eines Administrators.</translation>
    </message>
    <message>
        <source>Restart as administrator?</source>
        <translation>Als Administrator neu starten?</translation>
    </message>
    <message>
        <source>Restart as Administrator</source>
        <translation>Als Administrator neu starten</translation>
    </message>
    <message>
        <source>Saves the profile, closes this window and starts IOPrism again with administrator rights, on the Targets page; Windows asks for consent first</source>
        <translation>Speichert das Profil, schließt dieses Fenster und startet IOPrism mit Administratorrechten neu, auf der Seite Ziele; Windows fragt zuvor nach Zustimmung</translation>
    </message>
    <message>
        <source>Add &amp;Manager…</source>
        <translation>&amp;Manager hinzufügen…</translation>
    </message>
    <message>
        <source>Add a manager on another host (an ioprism-agent): its workers run there, together with this host&apos;s</source>
        <translation>Einen Manager auf einem anderen Rechner hinzufügen (einen ioprism-agent): Seine Worker laufen dort, zusammen mit denen dieses Rechners</translation>
    </message>
    <message>
        <source>Bind to Agent…</source>
        <translation>An Agent binden…</translation>
    </message>
    <message>
        <source>Run this manager&apos;s workers on an ioprism-agent on its host</source>
        <translation>Die Worker dieses Managers auf einem ioprism-agent auf seinem Rechner ausführen</translation>
    </message>
    <message>
        <source>Remove Manager</source>
        <translation>Manager entfernen</translation>
    </message>
    <message>
        <source>Remove this manager and its workers from the profile</source>
        <translation>Diesen Manager und seine Worker aus dem Profil entfernen</translation>
    </message>
    <message>
        <source>Add Manager</source>
        <translation>Manager hinzufügen</translation>
    </message>
    <message>
        <source>Bind Manager to Agent</source>
        <translation>Manager an Agent binden</translation>
    </message>
    <message>
        <source>Manager %1 (%2): first connection; its certificate %3 is now recorded. Compare it with the fingerprint the agent printed when it started.</source>
        <translation>Manager %1 (%2): erste Verbindung; sein Zertifikat %3 ist jetzt gespeichert. Vergleichen Sie es mit dem Fingerabdruck, den der Agent beim Start ausgegeben hat.</translation>
    </message>
    <message>
        <source>Manager %1 added</source>
        <translation>Manager %1 hinzugefügt</translation>
    </message>
    <message>
        <source>File tree on %1</source>
        <translation>Dateibaum auf %1</translation>
    </message>
    <message>
        <source>Target on %1</source>
        <translation>Ziel auf %1</translation>
    </message>
    <message>
        <source>The folder for the file tree, as a path on %1 (IOPrism makes the tree in %2 inside it):</source>
        <translation>Der Ordner für den Dateibaum, als Pfad auf %1 (IOPrism legt den Baum in %2 darin an):</translation>
    </message>
    <message>
        <source>The test file, disk or partition, as a path on %1:</source>
        <translation>Die Testdatei, Festplatte oder Partition, als Pfad auf %1:</translation>
    </message>
    <message>
        <source>A path on %1, not on this machine: type it as that host names it (/srv/test.dat, /dev/sdb, D:\test.dat). The agent there checks it and its allow list when the run starts.</source>
        <translation>Ein Pfad auf %1, nicht auf diesem Rechner: so eingeben, wie jener Rechner ihn nennt (/srv/test.dat, /dev/sdb, D:\test.dat). Der Agent dort prüft ihn und seine Freigabeliste, wenn der Lauf beginnt.</translation>
    </message>
    <message>
        <source>Where %1 points on %2 (the worker keeps the target and its settings):</source>
        <translation>Worauf %1 auf %2 zeigt (der Worker behält das Ziel und seine Einstellungen):</translation>
    </message>
    <message>
        <source>A place the agent of %1 reported, or a path on that host typed as it names it; nothing of this machine is offered</source>
        <translation>Ein Ort, den der Agent von %1 gemeldet hat, oder ein Pfad auf jenem Rechner, so eingegeben, wie er ihn nennt; nichts von diesem Rechner wird angeboten</translation>
    </message>
    <message>
        <source>A path typed…</source>
        <translation>Einen Pfad eingeben…</translation>
    </message>
    <message>
        <source>preconditioning</source>
        <translation>Vorkonditionierung</translation>
    </message>
    <message>
        <source>%1 — before the steps, in none of their figures</source>
        <translation>%1 — vor den Schritten, in keinem ihrer Werte</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · noch %1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1 of %2 written</source>
        <translation>%1 von %2 geschrieben</translation>
    </message>
    <message>
        <source>Preconditioning: %1 % · %2%3 · in no step&apos;s figures</source>
        <translation>Vorkonditionierung: %1 % · %2%3 · in keinem Wert eines Schritts</translation>
    </message>
    <message>
        <source>Preconditioning</source>
        <translation>Vorkonditionierung</translation>
    </message>
    <message>
        <source>Preconditioning…</source>
        <translation>Vorkonditionierung …</translation>
    </message>
    <message>
        <source>pausing</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Pause before step %1: %2 — no I/O, so that the drive can drain its cache</source>
        <translation>Pause vor Schritt %1: %2 — keine E/A, damit das Laufwerk seinen Cache leeren kann</translation>
    </message>
    <message>
        <source>Pause before step %1 of %2 · %3 · %4 of %5 (no I/O)</source>
        <translation>Pause vor Schritt %1 von %2 · %3 · %4 von %5 (keine E/A)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::ManagerDialog</name>
    <message>
        <source>Plaintext (loopback or SSH tunnel)</source>
        <translation>Unverschlüsselt (Loopback oder SSH-Tunnel)</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>Where ioprism-agent listens: host, host:port or [IPv6]:port (port 7355 when none is given).</source>
        <translation>Wo ioprism-agent lauscht: Rechner, Rechner:Port oder [IPv6]:Port (Port 7355, wenn keiner angegeben ist).</translation>
    </message>
    <message>
        <source>The file holding the agent&apos;s shared token (its first line), the same file the agent was started with.</source>
        <translation>Die Datei mit dem gemeinsamen Token des Agents (ihre erste Zeile), dieselbe Datei, mit der der Agent gestartet wurde.</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Choose the token file.</source>
        <translation>Die Token-Datei wählen.</translation>
    </message>
    <message>
        <source>Token file</source>
        <translation>Token-Datei</translation>
    </message>
    <message>
        <source>Connect without TLS: only for an agent started with --plaintext on this host, or reached through an SSH tunnel.</source>
        <translation>Ohne TLS verbinden: nur für einen Agent, der mit --plaintext auf diesem Rechner gestartet wurde oder über einen SSH-Tunnel erreicht wird.</translation>
    </message>
    <message>
        <source>SHA256:… (optional)</source>
        <translation>SHA256:… (optional)</translation>
    </message>
    <message>
        <source>The fingerprint the agent printed when it started. Empty: the certificate is recorded on first use and must not change later.</source>
        <translation>Der Fingerabdruck, den der Agent beim Start ausgegeben hat. Leer: Das Zertifikat wird bei der ersten Verbindung gespeichert und darf sich danach nicht ändern.</translation>
    </message>
    <message>
        <source>Why the last attempt failed.</source>
        <translation>Warum der letzte Versuch fehlschlug.</translation>
    </message>
    <message>
        <source>Connecting to the agent…</source>
        <translation>Verbindung zum Agent wird hergestellt…</translation>
    </message>
    <message>
        <source>Connect to the agent, check its token and certificate, and add it to the topology.</source>
        <translation>Mit dem Agent verbinden, Token und Zertifikat prüfen und ihn zur Topologie hinzufügen.</translation>
    </message>
    <message>
        <source>Close without adding (a connection still being made is dropped).</source>
        <translation>Schließen, ohne hinzuzufügen (eine Verbindung im Aufbau wird verworfen).</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>Adresse:</translation>
    </message>
    <message>
        <source>Token file:</source>
        <translation>Token-Datei:</translation>
    </message>
    <message>
        <source>Certificate pin:</source>
        <translation>Zertifikat-Pin:</translation>
    </message>
    <message>
        <source>give the agent&apos;s address</source>
        <translation>geben Sie die Adresse des Agents an</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::Managers</name>
    <message>
        <source>Manager %1 (%2) is not connected%3: remove it and add it again.</source>
        <translation>Manager %1 (%2) ist nicht verbunden%3: Entfernen Sie ihn und fügen Sie ihn erneut hinzu.</translation>
    </message>
    <message>
        <source>The profile cannot run on its managers: %1</source>
        <translation>Das Profil kann auf seinen Managern nicht laufen: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2, %n CPUs, IOPrism %3</source>
        <translation>
            <numerusform>%1: %2, %n CPU, IOPrism %3</numerusform>
            <numerusform>%1: %2, %n CPUs, IOPrism %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Agent at %1; engines: %2</source>
        <translation>Agent unter %1; Engines: %2</translation>
    </message>
    <message numerus="yes">
        <source>Clock offset: %1 ms ± %2 ms (%n round trips)</source>
        <translation>
            <numerusform>Uhrenversatz: %1 ms ± %2 ms (%n Umlauf)</numerusform>
            <numerusform>Uhrenversatz: %1 ms ± %2 ms (%n Umläufe)</numerusform>
        </translation>
    </message>
    <message>
        <source>Plaintext connection (no certificate)</source>
        <translation>Unverschlüsselte Verbindung (kein Zertifikat)</translation>
    </message>
    <message>
        <source>Certificate %1</source>
        <translation>Zertifikat %1</translation>
    </message>
    <message>
        <source>Device %1 %2 (%3)%4</source>
        <translation>Gerät %1 %2 (%3)%4</translation>
    </message>
    <message>
        <source>Mount %1 (%2), %3 free</source>
        <translation>Einhängepunkt %1 (%2), %3 frei</translation>
    </message>
    <message>
        <source>Targets allowed under: %1</source>
        <translation>Ziele erlaubt unter: %1</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::MessageBar</name>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Show or hide the full text of this message</source>
        <translation>Den vollen Text dieser Meldung zeigen oder verbergen</translation>
    </message>
    <message>
        <source>Dismiss this message (the next one, if any, shows)</source>
        <translation>Diese Meldung schließen (die nächste, falls vorhanden, erscheint)</translation>
    </message>
    <message>
        <source>Full text of the message; select to copy</source>
        <translation>Voller Text der Meldung; zum Kopieren markieren</translation>
    </message>
    <message numerus="yes">
        <source>Dismiss this message (%n more waiting)</source>
        <translation>
            <numerusform>Diese Meldung schließen (%n weitere wartet)</numerusform>
            <numerusform>Diese Meldung schließen (%n weitere warten)</numerusform>
        </translation>
    </message>
    <message>
        <source>More messages, most severe first; close each on its own</source>
        <translation>Weitere Meldungen, die schwersten zuerst; jede lässt sich einzeln schließen</translation>
    </message>
    <message>
        <source>Dismiss this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
    <message numerus="yes">
        <source>%n more message(s): close one to see them</source>
        <translation>
            <numerusform>%n weitere Meldung: eine schließen, um sie zu sehen</numerusform>
            <numerusform>%n weitere Meldungen: eine schließen, um sie zu sehen</numerusform>
        </translation>
    </message>
    <message>
        <source>Messages beyond these wait until one above is closed</source>
        <translation>Weitere Meldungen warten, bis eine darüber geschlossen wird</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::PreconditionBox</name>
    <message>
        <source>How much to write: this many times each target&apos;s region (PTS: 2). On a 1 TB drive at 500 MB/s, 2x takes over an hour: the plan above says how much.</source>
        <translation>Wie viel geschrieben wird: so oft den Bereich jedes Ziels (PTS: 2). Auf einem 1-TB-Laufwerk mit 500 MB/s dauert 2× über eine Stunde: Der Plan oben nennt die Menge.</translation>
    </message>
    <message>
        <source>The test&apos;s workload for this long instead of a capacity multiple (e.g. 30m, 2h); 0 or empty: by the capacity multiple</source>
        <translation>Die Last des Tests so lange statt eines Vielfachen der Kapazität (z. B. 30m, 2h); 0 oder leer: nach dem Vielfachen der Kapazität</translation>
    </message>
    <message>
        <source>Precondition first (SNIA PTS)</source>
        <translation>Zuerst vorkonditionieren (SNIA PTS)</translation>
    </message>
    <message>
        <source>Write every target before the first step, so that an SSD is measured as in use, not fresh or with an empty cache. Measured as a phase of its own, with its progress and time left; in none of the steps&apos; figures. It writes: only to test files and to devices you allowed to be written.</source>
        <translation>Jedes Ziel vor dem ersten Schritt beschreiben, damit eine SSD wie im Betrieb gemessen wird, nicht fabrikneu oder mit leerem Cache. Als eigene Phase gemessen, mit Fortschritt und Restzeit; in keinem Wert der Schritte. Es schreibt: nur in Testdateien und auf Geräte, deren Beschreiben Sie erlaubt haben.</translation>
    </message>
    <message>
        <source>128 KiB sequential writes</source>
        <translation>Sequenzielle Schreibvorgänge zu 128 KiB</translation>
    </message>
    <message>
        <source>PTS&apos;s workload-independent preconditioning: 128 KiB sequential writes at QD 32 across each target&apos;s region</source>
        <translation>Lastunabhängige Vorkonditionierung nach PTS: sequenzielle Schreibvorgänge zu 128 KiB mit QD 32 über den Bereich jedes Ziels</translation>
    </message>
    <message>
        <source>The first step&apos;s workload</source>
        <translation>Die Last des ersten Schritts</translation>
    </message>
    <message>
        <source>PTS&apos;s workload-dependent preconditioning: the first step&apos;s own specs, workers and queue depths, for a time or a capacity multiple</source>
        <translation>Lastabhängige Vorkonditionierung nach PTS: die Spezifikationen, Worker und Warteschlangentiefen des ersten Schritts, für eine Zeit oder ein Vielfaches der Kapazität</translation>
    </message>
    <message>
        <source>What preconditioning writes</source>
        <translation>Was die Vorkonditionierung schreibt</translation>
    </message>
    <message>
        <source>&amp;Writes:</source>
        <translation>&amp;Schreibt:</translation>
    </message>
    <message>
        <source> × capacity</source>
        <translation> × Kapazität</translation>
    </message>
    <message>
        <source>&amp;Amount:</source>
        <translation>&amp;Menge:</translation>
    </message>
    <message>
        <source>Or for a &amp;time:</source>
        <translation>Oder für eine &amp;Zeit:</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration of whole seconds (e.g. 30m, 2h)</source>
        <translation>„%1“ ist keine Dauer in ganzen Sekunden (z. B. 30m, 2h)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::RateLimitEditor</name>
    <message>
        <source> IOPS</source>
        <translation> IOPS</translation>
    </message>
    <message>
        <source>any IOPS</source>
        <translation>beliebige IOPS</translation>
    </message>
    <message>
        <source>Upper bound on I/Os per second; 0 = unlimited</source>
        <translation>Obergrenze der I⁠/⁠Os pro Sekunde; 0 = unbegrenzt</translation>
    </message>
    <message>
        <source> MB/s</source>
        <translation> MB/s</translation>
    </message>
    <message>
        <source>any MB/s</source>
        <translation>beliebige MB/s</translation>
    </message>
    <message>
        <source>Upper bound on throughput (MB = 10^6 bytes); 0 = unlimited</source>
        <translation>Obergrenze des Durchsatzes (MB = 10^6 Byte); 0 = unbegrenzt</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::ResultsModel</name>
    <message>
        <source>Scope</source>
        <translation>Ebene</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>Read IOPS</source>
        <translation>Lese-IOPS</translation>
    </message>
    <message>
        <source>Write IOPS</source>
        <translation>Schreib-IOPS</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Read MB/s</source>
        <translation>Lesen MB/s</translation>
    </message>
    <message>
        <source>Write MB/s</source>
        <translation>Schreiben MB/s</translation>
    </message>
    <message>
        <source>MiB/s</source>
        <translation>MiB/s</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>Mittlere Latenz</translation>
    </message>
    <message>
        <source>Max latency</source>
        <translation>Maximale Latenz</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>p99.9</source>
        <translation>p99,9</translation>
    </message>
    <message>
        <source>p99.99</source>
        <translation>p99,99</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CPU effectiveness</source>
        <translation>CPU-Effizienz</translation>
    </message>
    <message>
        <source>All workers, each worker, each target of each worker</source>
        <translation>Alle Worker, jeder Worker, jedes Ziel jedes Workers</translation>
    </message>
    <message>
        <source>I/Os per second, reads and writes</source>
        <translation>I⁠/⁠Os pro Sekunde, Lesen und Schreiben</translation>
    </message>
    <message>
        <source>Reads per second</source>
        <translation>Lesevorgänge pro Sekunde</translation>
    </message>
    <message>
        <source>Writes per second</source>
        <translation>Schreibvorgänge pro Sekunde</translation>
    </message>
    <message>
        <source>Throughput in decimal megabytes (10^6 bytes) per second</source>
        <translation>Durchsatz in dezimalen Megabyte (10^6 Byte) pro Sekunde</translation>
    </message>
    <message>
        <source>Read throughput, MB/s (10^6 bytes)</source>
        <translation>Lesedurchsatz, MB/s (10^6 Byte)</translation>
    </message>
    <message>
        <source>Write throughput, MB/s (10^6 bytes)</source>
        <translation>Schreibdurchsatz, MB/s (10^6 Byte)</translation>
    </message>
    <message>
        <source>Throughput in binary mebibytes (2^20 bytes) per second</source>
        <translation>Durchsatz in binären Mebibyte (2^20 Byte) pro Sekunde</translation>
    </message>
    <message>
        <source>Mean completion time of an I/O, submit to reap</source>
        <translation>Mittlere Abschlusszeit eines I⁠/⁠O, vom Absenden bis zum Abholen</translation>
    </message>
    <message>
        <source>Longest completion time (exact)</source>
        <translation>Längste Abschlusszeit (exakt)</translation>
    </message>
    <message>
        <source>Median latency (within 0.8 %)</source>
        <translation>Median der Latenz (auf 0,8 % genau)</translation>
    </message>
    <message>
        <source>90th percentile latency</source>
        <translation>90. Perzentil der Latenz</translation>
    </message>
    <message>
        <source>99th percentile latency</source>
        <translation>99. Perzentil der Latenz</translation>
    </message>
    <message>
        <source>99.9th percentile latency</source>
        <translation>99,9. Perzentil der Latenz</translation>
    </message>
    <message>
        <source>99.99th percentile latency</source>
        <translation>99,99. Perzentil der Latenz</translation>
    </message>
    <message>
        <source>I/Os that failed</source>
        <translation>Fehlgeschlagene I/Os</translation>
    </message>
    <message>
        <source>Busy CPU, % of all CPUs of the machine (All row only)</source>
        <translation>Belegte CPU, % aller CPUs des Rechners (nur Zeile „Alle“)</translation>
    </message>
    <message>
        <source>IOPS per busy CPU percent: higher is cheaper I/O</source>
        <translation>IOPS je Prozent belegter CPU: höher ist billigeres I⁠/⁠O</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::ResultsPage</name>
    <message>
        <source>&amp;Step:</source>
        <translation>&amp;Schritt:</translation>
    </message>
    <message>
        <source>One result set per step: the access specification(s) the workers ran together</source>
        <translation>Ein Ergebnissatz je Schritt: die Zugriffsspezifikation(en), die die Worker gemeinsam ausgeführt haben</translation>
    </message>
    <message>
        <source>Engine, measured time and how the step ended</source>
        <translation>Engine, gemessene Zeit und wie der Schritt endete</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Spalten</translation>
    </message>
    <message>
        <source>Choose the figures the table shows (also: right-click the header)</source>
        <translation>Die Zahlen wählen, die die Tabelle zeigt (auch: Rechtsklick auf den Tabellenkopf)</translation>
    </message>
    <message>
        <source>Results of the selected step: All, each worker, each target. Select a row to see its latency histogram.</source>
        <translation>Ergebnisse des gewählten Schritts: Alle, jeder Worker, jedes Ziel. Eine Zeile wählen, um ihr Latenzhistogramm zu sehen.</translation>
    </message>
    <message>
        <source>Latency histogram (Iometer bins)</source>
        <translation>Latenzhistogramm (Iometer-Klassen)</translation>
    </message>
    <message>
        <source>Share of the selected row&apos;s I/Os in each latency bin (Iometer&apos;s 21 bins, lower edge inclusive). Right-click to save.</source>
        <translation>Anteil der I⁠/⁠Os der gewählten Zeile in jeder Latenzklasse (die 21 Klassen von Iometer, Untergrenze eingeschlossen). Rechtsklick zum Speichern.</translation>
    </message>
    <message>
        <source>Save histogram as PNG or PDF…</source>
        <translation>Histogramm als PNG oder PDF speichern…</translation>
    </message>
    <message>
        <source>Device summary and verdict</source>
        <translation>Gerätezusammenfassung und Urteil</translation>
    </message>
    <message>
        <source>What the devices carrying the targets did over the measured time, and whether that confirms the application&apos;s figures</source>
        <translation>Was die Geräte unter den Zielen in der gemessenen Zeit getan haben und ob das die Zahlen der Anwendung bestätigt</translation>
    </message>
    <message>
        <source>read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>% of I/Os</source>
        <translation>% der I/Os</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>No results yet: run the profile (F5).</source>
        <translation>Noch keine Ergebnisse: das Profil ausführen (F5).</translation>
    </message>
    <message>
        <source>engine %1</source>
        <translation>Engine %1</translation>
    </message>
    <message>
        <source>%1 s measured</source>
        <translation>%1 s gemessen</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>ended early</source>
        <translation>vorzeitig beendet</translation>
    </message>
    <message>
        <source>no step completed</source>
        <translation>kein Schritt abgeschlossen</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>vom Benutzer angehalten</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Latency histogram (Iometer bins): %1, %L2 I/Os</source>
        <translation>Latenzhistogramm (Iometer-Klassen): %1, %L2 I⁠/⁠Os</translation>
    </message>
    <message>
        <source>Latency histogram</source>
        <translation>Latenzhistogramm</translation>
    </message>
    <message>
        <source>&lt;b&gt;No device counters.&lt;/b&gt;&lt;br&gt;The device&apos;s own figures (iostat&apos;s view) are not available for this run, so they cannot confirm the application&apos;s numbers.</source>
        <translation>&lt;b&gt;Keine Gerätezähler.&lt;/b&gt;&lt;br&gt;Die eigenen Zahlen des Geräts (die Sicht von iostat) gibt es für diesen Lauf nicht, daher können sie die Zahlen der Anwendung nicht bestätigen.</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>Alle Schritte</translation>
    </message>
    <message>
        <source>Every step of the run in one row each: read and write MB/s, IOPS, mean and p99 latency, and the device&apos;s verdict. Click a step to see its details below. Ctrl+C copies the grid; right-click for CSV, Markdown or a file.</source>
        <translation>Jeder Schritt des Laufs in einer Zeile: Lese- und Schreib-MB/s, IOPS, mittlere und p99-Latenz sowie das Urteil des Geräts. Ein Klick auf einen Schritt zeigt unten seine Einzelheiten. Strg+C kopiert die Übersicht; Rechtsklick für CSV, Markdown oder eine Datei.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy as CSV</source>
        <translation>Als CSV kopieren</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>Als Markdown kopieren</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Export the summary</source>
        <translation>Übersicht exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv);;Markdown (*.md);;HTML (*.html);;Text (*.txt)</source>
        <translation>CSV (*.csv);;Markdown (*.md);;HTML (*.html);;Text (*.txt)</translation>
    </message>
    <message>
        <source>Files opened and closed in the selected step, per scope that opened any: files (or Iometer&apos;s connections) per second, and the time of each open, close and whole open-to-close</source>
        <translation>Im gewählten Schritt geöffnete und geschlossene Dateien, je Ebene, die welche geöffnet hat: Dateien (oder Verbindungen von Iometer) pro Sekunde und die Zeit für Öffnen, Schließen und das ganze Öffnen bis Schließen</translation>
    </message>
    <message>
        <source>Connections (Iometer&apos;s connection rate)</source>
        <translation>Verbindungen (Verbindungsrate von Iometer)</translation>
    </message>
    <message>
        <source>Files opened and closed</source>
        <translation>Geöffnete und geschlossene Dateien</translation>
    </message>
    <message>
        <source>%1 ms measured</source>
        <translation>%1 ms gemessen</translation>
    </message>
    <message>
        <source>Write against bytes written</source>
        <translation>Schreiben über geschriebene Bytes</translation>
    </message>
    <message>
        <source>The step&apos;s write MB/s and write latency of each interval at the bytes written by its end, and the write cliff where the rate fell and stayed down (the dashed line: the bytes written before it, a cache&apos;s size). Shown for a step that wrote long enough to be judged.</source>
        <translation>Die Schreib-MB/s und die Schreiblatenz jedes Intervalls des Schritts bei den bis zu seinem Ende geschriebenen Bytes, und die Schreibklippe, wo die Rate fiel und unten blieb (die gestrichelte Linie: die davor geschriebenen Bytes, die Größe eines Caches). Gezeigt für einen Schritt, der lange genug schrieb, um beurteilt zu werden.</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SeriesPage</name>
    <message>
        <source>What the series sweeps and how far it has run</source>
        <translation>Was die Serie variiert und wie weit sie gelaufen ist</translation>
    </message>
    <message>
        <source>No series yet</source>
        <translation>Noch keine Serie</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n values)</source>
        <translation>
            <numerusform>%1 (%n Wert)</numerusform>
            <numerusform>%1 (%n Werte)</numerusform>
        </translation>
    </message>
    <message>
        <source>Series over %1</source>
        <translation>Serie über %1</translation>
    </message>
    <message>
        <source> × </source>
        <translation> × </translation>
    </message>
    <message numerus="yes">
        <source>, %n trials</source>
        <translation>
            <numerusform>, %n Durchgang</numerusform>
            <numerusform>, %n Durchgänge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>stopped by an error after %1 of %n steps</source>
        <translation>
            <numerusform>durch einen Fehler angehalten nach %1 von %n Schritt</numerusform>
            <numerusform>durch einen Fehler angehalten nach %1 von %n Schritten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>stopped after %1 of %n steps</source>
        <translation>
            <numerusform>angehalten nach %1 von %n Schritt</numerusform>
            <numerusform>angehalten nach %1 von %n Schritten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n steps done</source>
        <translation>
            <numerusform>%n Schritt fertig</numerusform>
            <numerusform>%n Schritte fertig</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n steps done</source>
        <translation>
            <numerusform>%1 von %n Schritt fertig</numerusform>
            <numerusform>%1 von %n Schritten fertig</numerusform>
        </translation>
    </message>
    <message>
        <source>This run is no series: the Results page has its steps</source>
        <translation>Dieser Lauf ist keine Serie: Die Seite Ergebnisse zeigt seine Schritte</translation>
    </message>
    <message>
        <source>Iometer&apos;s cycling: %1</source>
        <translation>Zyklus von Iometer: %1</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SeriesPlots</name>
    <message>
        <source>mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>p99.9</source>
        <translation>p99,9</translation>
    </message>
    <message>
        <source> (log₂ scale)</source>
        <translation> (log₂-Skala)</translation>
    </message>
    <message>
        <source>transfer size</source>
        <translation>Transfergröße</translation>
    </message>
    <message>
        <source>queue depth</source>
        <translation>Warteschlangentiefe</translation>
    </message>
    <message>
        <source>worker count</source>
        <translation>Anzahl Worker</translation>
    </message>
    <message>
        <source>% read</source>
        <translation>% Lesen</translation>
    </message>
    <message>
        <source>% random</source>
        <translation>% zufällig</translation>
    </message>
    <message>
        <source>%1 (%2 – %3)</source>
        <translation>%1 (%2 – %3)</translation>
    </message>
    <message>
        <source>No series has run yet. Tick &quot;Run a series&quot; on the Test Setup page (or choose the test type &quot;Cycle outstanding I/Os&quot;) and press Start: each point is drawn here as it finishes.</source>
        <translation>Es ist noch keine Serie gelaufen. Auf der Seite Testaufbau „Eine Serie ausführen“ ankreuzen (oder den Testtyp „Ausstehende I⁠/⁠Os zyklisch“ wählen) und Start drücken: Jeder Punkt erscheint hier, sobald er fertig ist.</translation>
    </message>
    <message>
        <source>&amp;Heat map of:</source>
        <translation>&amp;Heatmap von:</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>The figure the heat map colours and the curves beside it show: the median of each point&apos;s trials</source>
        <translation>Die Zahl, die die Heatmap einfärbt und die Kurven daneben zeigen: der Median der Durchgänge jedes Punkts</translation>
    </message>
    <message>
        <source>&amp;Workload:</source>
        <translation>&amp;Last:</translation>
    </message>
    <message>
        <source>The access specification (and target, when the targets run in turn) whose matrix is shown</source>
        <translation>Die Zugriffsspezifikation (und das Ziel, wenn die Ziele nacheinander laufen), deren Matrix gezeigt wird</translation>
    </message>
    <message>
        <source>Each cell is a point of the matrix, its colour the chosen figure. Hover over a cell for its exact figures; right-click to save.</source>
        <translation>Jede Zelle ist ein Punkt der Matrix, ihre Farbe die gewählte Zahl. Mit der Maus über eine Zelle fahren für die genauen Zahlen; Rechtsklick zum Speichern.</translation>
    </message>
    <message>
        <source>Each point is the median of its trials (whiskers: smallest to largest). Hover for the figures at a value; right-click to save.</source>
        <translation>Jeder Punkt ist der Median seiner Durchgänge (Whisker: kleinster bis größter). Mit der Maus darüber fahren für die Zahlen eines Werts; Rechtsklick zum Speichern.</translation>
    </message>
    <message>
        <source>Series IOPS and MB/s</source>
        <translation>Serie IOPS und MB/s</translation>
    </message>
    <message>
        <source>Series latency</source>
        <translation>Serie Latenz</translation>
    </message>
    <message>
        <source>Series heat map</source>
        <translation>Serie Heatmap</translation>
    </message>
    <message>
        <source>Series curves</source>
        <translation>Serie Kurven</translation>
    </message>
    <message>
        <source>IOPS and MB/s by queue depth (Iometer&apos;s cycling)</source>
        <translation>IOPS und MB/s nach Warteschlangentiefe (Zyklen von Iometer)</translation>
    </message>
    <message>
        <source>IOPS and MB/s by %1</source>
        <translation>IOPS und MB/s nach %1</translation>
    </message>
    <message>
        <source>Latency by %1</source>
        <translation>Latenz nach %1</translation>
    </message>
    <message>
        <source>latency (%1)</source>
        <translation>Latenz (%1)</translation>
    </message>
    <message>
        <source>device read MB/s</source>
        <translation>Gerät Lesen MB/s</translation>
    </message>
    <message>
        <source>device write MB/s</source>
        <translation>Gerät Schreiben MB/s</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 by %2, one curve per %3</source>
        <translation>%1 nach %2, eine Kurve je %3</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>noch nicht gelaufen</translation>
    </message>
    <message>
        <source>IOPS: %1</source>
        <translation>IOPS: %1</translation>
    </message>
    <message>
        <source>MB/s: %1</source>
        <translation>MB/s: %1</translation>
    </message>
    <message>
        <source>latency: mean %1, p50 %2, p99 %3, p99.9 %4</source>
        <translation>Latenz: Mittel %1, p50 %2, p99 %3, p99,9 %4</translation>
    </message>
    <message>
        <source>device: read %1, write %2</source>
        <translation>Gerät: Lesen %1, Schreiben %2</translation>
    </message>
    <message>
        <source>1 trial</source>
        <translation>1 Durchgang</translation>
    </message>
    <message numerus="yes">
        <source>%n trials, median (min – max)</source>
        <translation>
            <numerusform>%n Durchgang, Median (Min. – Max.)</numerusform>
            <numerusform>%n Durchgänge, Median (Min. – Max.)</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped early</source>
        <translation>vorzeitig angehalten</translation>
    </message>
    <message>
        <source>Save the %1 as PNG or PDF…</source>
        <translation>%1 als PNG oder PDF speichern…</translation>
    </message>
    <message>
        <source>files/s</source>
        <translation>Dateien/s</translation>
    </message>
    <message>
        <source>operation p99 latency</source>
        <translation>p99-Latenz der Operation</translation>
    </message>
    <message>
        <source>operation mean</source>
        <translation>Operation Mittel</translation>
    </message>
    <message>
        <source>operation p99</source>
        <translation>Operation p99</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>files: %1 opened/s; open %2, close %3, operation %4 (mean), operation p99 %5</source>
        <translation>Dateien: %1 geöffnet/s; Öffnen %2, Schließen %3, Operation %4 (Mittel), Operation p99 %5</translation>
    </message>
    <message>
        <source>%1 files/s</source>
        <translation>%1 Dateien/s</translation>
    </message>
    <message>
        <source>&amp;Log scale for IOPS</source>
        <translation>&amp;Logarithmische Skala für IOPS</translation>
    </message>
    <message>
        <source>Draw IOPS on a logarithmic axis: IOPS that span orders of magnitude (small to large transfers, one to many outstanding I/Os) stay readable at both ends, and the IOPS curve no longer lies on the MB/s curve where the two are proportional</source>
        <translation>IOPS auf einer logarithmischen Achse zeichnen: IOPS, die Größenordnungen überspannen (kleine bis große Transfers, eine bis viele ausstehende I⁠/⁠Os), bleiben an beiden Enden lesbar, und die IOPS-Kurve liegt nicht mehr auf der MB/s-Kurve, wo beide proportional sind</translation>
    </message>
    <message>
        <source>IOPS (log scale)</source>
        <translation>IOPS (log. Skala)</translation>
    </message>
    <message>
        <source>read MB/s</source>
        <translation>Lesen MB/s</translation>
    </message>
    <message>
        <source>write MB/s</source>
        <translation>Schreiben MB/s</translation>
    </message>
    <message>
        <source>position (% of the target)</source>
        <translation>Position (% des Ziels)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SetupPage</name>
    <message>
        <source>Measured time of each step (90, 90s, 1m30s, 2h); 0 = until you press Stop</source>
        <translation>Gemessene Zeit jedes Schritts (90, 90s, 1m30s, 2h); 0 = bis Stopp gedrückt wird</translation>
    </message>
    <message>
        <source>Time each step runs before measuring starts (not recorded), e.g. 5s</source>
        <translation>Zeit, die jeder Schritt vor Beginn der Messung läuft (nicht aufgezeichnet), z. B. 5s</translation>
    </message>
    <message>
        <source>How often the live figures and the time series are sampled: 100ms to 60s</source>
        <translation>Wie oft die Live-Zahlen und die Zeitreihe erfasst werden: 100ms bis 60s</translation>
    </message>
    <message>
        <source>Iometer&apos;s test types: Normal runs each access specification once with every worker and target; the others repeat it while adding workers, targets or outstanding I/Os (the cycling fields below), one step each. A series needs the type Normal.</source>
        <translation>Die Testtypen von Iometer: Normal führt jede Zugriffsspezifikation einmal mit allen Workern und Zielen aus; die anderen wiederholen sie und fügen dabei Worker, Ziele oder ausstehende I⁠/⁠Os hinzu (die Zyklusfelder unten), je einen Schritt. Eine Serie braucht den Typ Normal.</translation>
    </message>
    <message>
        <source>The values of this axis: FROM..TO:xN (multiplied by N while at most TO), FROM..TO:+N (N added), or a list V1,V2,…. Sizes take units: 512..16M:x2, 4k,64k,1m; depths 1..256:x2; percentages 0..100:+25.</source>
        <translation>Die Werte dieser Achse: VON..BIS:xN (mal N, solange höchstens BIS), VON..BIS:+N (plus N) oder eine Liste W1,W2,…. Größen mit Einheiten: 512..16M:x2, 4k,64k,1m; Tiefen 1..256:x2; Prozente 0..100:+25.</translation>
    </message>
    <message>
        <source>Trials: the whole series runs this many times; each point shows the median with the smallest and largest trial as whiskers</source>
        <translation>Durchgänge: Die ganze Serie läuft so oft; jeder Punkt zeigt den Median, mit dem kleinsten und größten Durchgang als Whisker</translation>
    </message>
    <message>
        <source>Each point stops after this many I/Os per worker and target instead of after the run time (0 = the run time)</source>
        <translation>Jeder Punkt endet nach so vielen I⁠/⁠Os je Worker und Ziel statt nach der Laufzeit (0 = die Laufzeit)</translation>
    </message>
    <message>
        <source>Worker n of each point starts n × this after the first (e.g. 5s); 0 = all together</source>
        <translation>Worker n jedes Punkts startet n × so viel nach dem ersten (z. B. 5s); 0 = alle zugleich</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>targets</source>
        <translation>Ziele</translation>
    </message>
    <message>
        <source>outstanding I/Os per target</source>
        <translation>ausstehende I⁠/⁠Os je Ziel</translation>
    </message>
    <message>
        <source>The first step&apos;s number of %1 (at least 1)</source>
        <translation>Anzahl %1 im ersten Schritt (mindestens 1)</translation>
    </message>
    <message>
        <source>How the %1 grow from step to step: added (linear, at least 1) or multiplied (exponential, at least 2)</source>
        <translation>Wie die %1 von Schritt zu Schritt wachsen: addiert (linear, mindestens 1) oder multipliziert (exponentiell, mindestens 2)</translation>
    </message>
    <message>
        <source>The largest queue depth run (inclusive; a step past it is not run)</source>
        <translation>Die größte ausgeführte Warteschlangentiefe (einschließlich; ein Schritt darüber läuft nicht)</translation>
    </message>
    <message>
        <source>What the second axis sweeps (not the first axis&apos;s parameter)</source>
        <translation>Was die zweite Achse variiert (nicht der Parameter der ersten Achse)</translation>
    </message>
    <message>
        <source>Same fixed seed for every worker:</source>
        <translation>Derselbe feste Seed für jeden Worker:</translation>
    </message>
    <message>
        <source>What Start will run: the number of steps (every access specification index, cycling step, series point and trial) and the time they take, preparation of the targets aside</source>
        <translation>Was Start ausführen wird: die Zahl der Schritte (jeder Index der Zugriffsspezifikationen, jeder Zyklusschritt, Serienpunkt und Durchgang) und ihre Dauer, ohne die Vorbereitung der Ziele</translation>
    </message>
    <message>
        <source>Engine (this computer)</source>
        <translation>Engine (dieser Rechner)</translation>
    </message>
    <message>
        <source>Automatic: io_uring, else sync</source>
        <translation>Automatisch: io_uring, sonst sync</translation>
    </message>
    <message>
        <source>io_uring only</source>
        <translation>nur io_uring</translation>
    </message>
    <message>
        <source>sync: pread/pwrite threads</source>
        <translation>sync: pread/pwrite-Threads</translation>
    </message>
    <message>
        <source>null: no I/O (IOPrism&apos;s own overhead)</source>
        <translation>null: kein I⁠/⁠O (der eigene Aufwand von IOPrism)</translation>
    </message>
    <message>
        <source>How I/O is issued. Saved with the application&apos;s settings, not in the profile.</source>
        <translation>Wie I⁠/⁠O abgesetzt wird. Wird mit den Einstellungen der Anwendung gespeichert, nicht im Profil.</translation>
    </message>
    <message>
        <source>&amp;Polled completions</source>
        <translation>&amp;Abfragende Fertigmeldung</translation>
    </message>
    <message>
        <source>io_uring&apos;s IOPOLL (fio&apos;s hipri): each worker spins on the device&apos;s completion queue instead of sleeping until its interrupt, for the lowest latency an NVMe drive gives. Only for direct I/O to devices whose queue polls (/sys/block/DEVICE/queue/io_poll is 1: NVMe with the nvme.poll_queues=N module parameter): any other target is refused before the run starts. Takes a CPU per worker while it runs.</source>
        <translation>IOPOLL von io_uring (hipri bei fio): Jeder Worker fragt die Completion-Queue des Geräts ständig ab, statt bis zu dessen Interrupt zu schlafen – für die niedrigste Latenz, die ein NVMe-Laufwerk liefert. Nur für direkte I⁠/⁠O auf Geräte, deren Queue abgefragt werden kann (/sys/block/GERÄT/queue/io_poll ist 1: NVMe mit dem Modulparameter nvme.poll_queues=N); jedes andere Ziel wird vor dem Start des Laufs abgelehnt. Belegt während des Laufs eine CPU pro Worker.</translation>
    </message>
    <message>
        <source>Kernel &amp;submission thread</source>
        <translation>Kernel-&amp;Submission-Thread</translation>
    </message>
    <message>
        <source>io_uring&apos;s SQPOLL (fio&apos;s sqthread_poll): a kernel thread per worker (iou-sqp) takes the worker&apos;s requests from the ring without a system call. Any target. The thread is busy until a second after the last I/O: a CPU per worker.</source>
        <translation>SQPOLL von io_uring (sqthread_poll bei fio): Ein Kernel-Thread pro Worker (iou-sqp) holt die Anforderungen des Workers ohne Systemaufruf aus dem Ring. Jedes Ziel. Der Thread bleibt bis eine Sekunde nach der letzten I⁠/⁠O beschäftigt: eine CPU pro Worker.</translation>
    </message>
    <message>
        <source>Peak mode:</source>
        <translation>Spitzenmodus:</translation>
    </message>
    <message>
        <source>Completions each worker waits for before taking them (fio&apos;s iodepth_batch_complete_min; at most the I/Os it has in flight). 1: each I/O is taken as it completes, and the device keeps the queue depth asked for. More (e.g. half the queue depth) saves a wake-up per I/O where the computer, not the device, is the limit (a RAM disk, a fast NVMe on few cores); the device then sees fewer I/Os outstanding while the others wait to be taken. Each I/O&apos;s latency runs until it is taken.</source>
        <translation>Fertigmeldungen, auf die jeder Worker wartet, bevor er sie abholt (iodepth_batch_complete_min bei fio; höchstens so viele I⁠/⁠Os, wie er ausstehend hat). 1: Jede I⁠/⁠O wird abgeholt, sobald sie fertig ist, und das Gerät behält die gewählte Warteschlangentiefe. Mehr (z. B. die halbe Warteschlangentiefe) spart ein Aufwecken pro I⁠/⁠O, wo der Rechner und nicht das Gerät die Grenze ist (eine RAM-Disk, eine schnelle NVMe auf wenigen Kernen); das Gerät sieht dann weniger ausstehende I⁠/⁠Os, während die übrigen auf das Abholen warten. Die Latenz jeder I⁠/⁠O läuft, bis sie abgeholt wird.</translation>
    </message>
    <message>
        <source>Reap &amp;batch:</source>
        <translation>Abhol-&amp;Stapel:</translation>
    </message>
    <message>
        <source>&amp;I/O engine:</source>
        <translation>&amp;I/O-Engine:</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>A note saved with the profile and the results</source>
        <translation>Eine Notiz, die mit dem Profil und den Ergebnissen gespeichert wird</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>&amp;Run time per step:</source>
        <translation>&amp;Laufzeit je Schritt:</translation>
    </message>
    <message>
        <source>R&amp;amp-up time:</source>
        <translation>&amp;Anlaufzeit:</translation>
    </message>
    <message>
        <source>&amp;Sampling interval:</source>
        <translation>&amp;Messintervall:</translation>
    </message>
    <message>
        <source>All: workers and targets</source>
        <translation>Alle: Worker und Ziele</translation>
    </message>
    <message>
        <source>No targets</source>
        <translation>Keine Ziele</translation>
    </message>
    <message>
        <source>No workers</source>
        <translation>Keine Worker</translation>
    </message>
    <message>
        <source>Only All (no targets, no workers)</source>
        <translation>Nur „Alle“ (keine Ziele, keine Worker)</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Nichts</translation>
    </message>
    <message>
        <source>Which rows the Iometer-layout CSV records (Iometer&apos;s &quot;Record Results&quot;)</source>
        <translation>Welche Zeilen die CSV im Iometer-Layout aufzeichnet („Record Results“ von Iometer)</translation>
    </message>
    <message>
        <source>Record &amp;results:</source>
        <translation>Ergebnisse &amp;aufzeichnen:</translation>
    </message>
    <message>
        <source>Repeatable runs: every worker uses this seed. Unticked: each worker draws a random seed per run (recorded in the results).</source>
        <translation>Wiederholbare Läufe: Jeder Worker nutzt diesen Seed. Ohne Häkchen zieht jeder Worker je Lauf einen zufälligen Seed (in den Ergebnissen vermerkt).</translation>
    </message>
    <message>
        <source>The seed, a whole number</source>
        <translation>Der Seed, eine ganze Zahl</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Seed:</translation>
    </message>
    <message>
        <source>Cycling (Iometer)</source>
        <translation>Zyklen (Iometer)</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>Normal</translation>
    </message>
    <message>
        <source>Cycle targets</source>
        <translation>Ziele zyklisch</translation>
    </message>
    <message>
        <source>Cycle workers</source>
        <translation>Worker zyklisch</translation>
    </message>
    <message>
        <source>Increment targets parallel</source>
        <translation>Ziele parallel erhöhen</translation>
    </message>
    <message>
        <source>Increment targets serial</source>
        <translation>Ziele seriell erhöhen</translation>
    </message>
    <message>
        <source>Cycle workers and targets</source>
        <translation>Worker und Ziele zyklisch</translation>
    </message>
    <message>
        <source>Cycle outstanding I/Os</source>
        <translation>Ausstehende I/Os zyklisch</translation>
    </message>
    <message>
        <source>Cycle outstanding I/Os and targets</source>
        <translation>Ausstehende I⁠/⁠Os und Ziele zyklisch</translation>
    </message>
    <message>
        <source>Test &amp;type:</source>
        <translation>Test&amp;typ:</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>Step type</source>
        <translation>Schrittart</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>Worker:</translation>
    </message>
    <message>
        <source>Targets:</source>
        <translation>Ziele:</translation>
    </message>
    <message>
        <source>Outstanding I/Os:</source>
        <translation>Ausstehende I/Os:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Worker and target cycling end when every %1 takes part: the last step is all of them</source>
        <translation>Worker- und Zielzyklen enden, wenn jeder %1 teilnimmt: Der letzte Schritt umfasst alle</translation>
    </message>
    <message>
        <source>worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>linear (+ step)</source>
        <translation>linear (+ Schritt)</translation>
    </message>
    <message>
        <source>exponential (× step)</source>
        <translation>exponentiell (× Schritt)</translation>
    </message>
    <message>
        <source>Linear adds the step each time (1, 2, 3 …); exponential multiplies by it (1, 2, 4 …)</source>
        <translation>Linear addiert jedes Mal den Schritt (1, 2, 3 …); exponentiell multipliziert damit (1, 2, 4 …)</translation>
    </message>
    <message>
        <source>Run a series (IOPrism)</source>
        <translation>Eine Serie ausführen (IOPrism)</translation>
    </message>
    <message>
        <source>Sweep one parameter (a curve) or two (a matrix): every point is a step of its own, for every access specification in turn. The Series page draws the curves and the heat map as the points finish.</source>
        <translation>Einen Parameter (eine Kurve) oder zwei (eine Matrix) variieren: Jeder Punkt ist ein eigener Schritt, für jede Zugriffsspezifikation der Reihe nach. Die Seite Serie zeichnet die Kurven und die Heatmap, sobald die Punkte fertig sind.</translation>
    </message>
    <message>
        <source>Transfer size</source>
        <translation>Transfergröße</translation>
    </message>
    <message>
        <source>Outstanding I/Os</source>
        <translation>Ausstehende I/Os</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>% read</source>
        <translation>% Lesen</translation>
    </message>
    <message>
        <source>% random</source>
        <translation>% zufällig</translation>
    </message>
    <message>
        <source>Second a&amp;xis (a matrix):</source>
        <translation>Zweite A&amp;chse (eine Matrix):</translation>
    </message>
    <message>
        <source>Sweep a second parameter for every value of the first: a matrix, shown as a heat map and a family of curves</source>
        <translation>Einen zweiten Parameter für jeden Wert des ersten variieren: eine Matrix, gezeigt als Heatmap und Kurvenschar</translation>
    </message>
    <message>
        <source>The values this axis takes, in the order they run</source>
        <translation>Die Werte dieser Achse in der Reihenfolge, in der sie laufen</translation>
    </message>
    <message>
        <source>&amp;First axis:</source>
        <translation>&amp;Erste Achse:</translation>
    </message>
    <message>
        <source>R&amp;epetitions:</source>
        <translation>&amp;Wiederholungen:</translation>
    </message>
    <message>
        <source>I/&amp;Os per point:</source>
        <translation>I/&amp;Os je Punkt:</translation>
    </message>
    <message>
        <source>Each point on each target in &amp;turn</source>
        <translation>Jeden Punkt auf jedem Ziel &amp;nacheinander</translation>
    </message>
    <message>
        <source>Run each point on one target at a time (target A, target B, then the next point): one curve per target, to compare devices or stacks in one run</source>
        <translation>Jeden Punkt auf einem Ziel nach dem anderen ausführen (Ziel A, Ziel B, dann der nächste Punkt): eine Kurve je Ziel, um Geräte oder Stacks in einem Lauf zu vergleichen</translation>
    </message>
    <message>
        <source>Worker sta&amp;gger:</source>
        <translation>Worker-&amp;Versatz:</translation>
    </message>
    <message>
        <source>Not readable: %1</source>
        <translation>Nicht lesbar: %1</translation>
    </message>
    <message>
        <source>No value: see the field&apos;s tooltip</source>
        <translation>Kein Wert: siehe Tooltip des Feldes</translation>
    </message>
    <message numerus="yes">
        <source>%n values: %1</source>
        <translation>
            <numerusform>%n Wert: %1</numerusform>
            <numerusform>%n Werte: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to run yet: give a worker a target and an access specification (the problems are marked where they are).</source>
        <translation>Noch nichts auszuführen: einem Worker ein Ziel und eine Zugriffsspezifikation geben (die Probleme sind dort markiert, wo sie sind).</translation>
    </message>
    <message numerus="yes">
        <source>%n steps</source>
        <translation>
            <numerusform>%n Schritt</numerusform>
            <numerusform>%n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, each until its I/Os are done (%2 per worker and target)</source>
        <translation>%1, jeder bis seine I⁠/⁠Os erledigt sind (%2 je Worker und Ziel)</translation>
    </message>
    <message>
        <source> after a %1 ramp-up</source>
        <translation> nach %1 Anlauf</translation>
    </message>
    <message>
        <source>%1, each until you press Stop</source>
        <translation>%1, jeder bis Stopp gedrückt wird</translation>
    </message>
    <message>
        <source>%1 × (%2 ramp-up + %3) = %4</source>
        <translation>%1 × (%2 Anlauf + %3) = %4</translation>
    </message>
    <message>
        <source>%1 × %2 = %3</source>
        <translation>%1 × %2 = %3</translation>
    </message>
    <message>
        <source>, plus the worker stagger</source>
        <translation>, zuzüglich des Worker-Versatzes</translation>
    </message>
    <message>
        <source>: %1 × %2 × %3</source>
        <translation>: %1 × %2 × %3</translation>
    </message>
    <message numerus="yes">
        <source>%n points</source>
        <translation>
            <numerusform>%n Punkt</numerusform>
            <numerusform>%n Punkte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n Durchgang</numerusform>
            <numerusform>%n Durchgänge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n access specifications</source>
        <translation>
            <numerusform>%n Zugriffsspezifikation</numerusform>
            <numerusform>%n Zugriffsspezifikationen</numerusform>
        </translation>
    </message>
    <message>
        <source>Start runs %1</source>
        <translation>Start führt %1 aus</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number</source>
        <translation>„%1“ ist keine ganze Zahl</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number of milliseconds (e.g. 500ms, 5s)</source>
        <translation>„%1“ ist keine ganze Zahl von Millisekunden (z. B. 500ms, 5s)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number of seconds (e.g. 30, 90s, 1m30s)</source>
        <translation>„%1“ ist keine ganze Zahl von Sekunden (z. B. 30, 90s, 1m30s)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration (e.g. 100ms, 1s)</source>
        <translation>„%1“ ist keine Dauer (z. B. 100ms, 1s)</translation>
    </message>
    <message>
        <source>What the profile runs, from its settings as they are now (shown beside the description in reports; not saved in it)</source>
        <translation>Was das Profil ausführt, nach seinen aktuellen Einstellungen (in Berichten neben der Beschreibung gezeigt; nicht darin gespeichert)</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>Ablauf:</translation>
    </message>
    <message>
        <source>io_uring where the kernel allows it, else the sync engine (a sandbox or the kernel.io_uring_disabled setting may refuse io_uring). The sync engine also where a target cannot take I/O without blocking (zram) and no worker keeps more than 2 I/Os outstanding: io_uring would measure its own hand-off to a kernel thread there, not the device. A notice says so.</source>
        <translation>io_uring, wo der Kernel es zulässt, sonst die sync-Engine (eine Sandbox oder die Einstellung kernel.io_uring_disabled kann io_uring verweigern). Die sync-Engine auch dort, wo ein Ziel I⁠/⁠O nicht ohne Blockieren annimmt (zram) und kein Worker mehr als 2 I⁠/⁠Os ausstehend hat: io_uring würde dort seine eigene Übergabe an einen Kernel-Thread messen, nicht das Gerät. Ein Hinweis sagt es.</translation>
    </message>
    <message>
        <source>Automatic: IOCP</source>
        <translation>Automatisch: IOCP</translation>
    </message>
    <message>
        <source>Overlapped I/O on a completion port, the engine for this computer</source>
        <translation>Überlapptes I⁠/⁠O über einen Completion Port, die Engine für diesen Computer</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>The best engine that works on this computer</source>
        <translation>Die beste Engine, die auf diesem Computer funktioniert</translation>
    </message>
    <message>
        <source>The kernel&apos;s asynchronous I/O rings; the run stops with an error where the kernel or a sandbox refuses them</source>
        <translation>Die asynchronen I⁠/⁠O-Ringe des Kernels; der Lauf endet mit einem Fehler, wo der Kernel oder eine Sandbox sie verweigert</translation>
    </message>
    <message>
        <source>One thread per outstanding I/O, each waiting in pread or pwrite</source>
        <translation>Ein Thread je ausstehendem I⁠/⁠O, jeder wartet in pread oder pwrite</translation>
    </message>
    <message>
        <source>IOCP: overlapped I/O on a completion port</source>
        <translation>IOCP: überlapptes I⁠/⁠O über einen Completion Port</translation>
    </message>
    <message>
        <source>Unbuffered overlapped ReadFile and WriteFile, completions gathered from one I/O completion port per worker</source>
        <translation>Ungepuffertes überlapptes ReadFile und WriteFile, Abschlüsse aus einem I⁠/⁠O-Completion-Port je Worker gesammelt</translation>
    </message>
    <message>
        <source>Completes every request at once without touching the target: what IOPrism itself costs</source>
        <translation>Schließt jede Anfrage sofort ab, ohne das Ziel zu berühren: was IOPrism selbst kostet</translation>
    </message>
    <message>
        <source>%1, each until steady (at most %2 rounds of %3%4): %5 at most</source>
        <translation>%1, jeder bis eingeschwungen (höchstens %2 Runden zu %3%4): höchstens %5</translation>
    </message>
    <message>
        <source>, after a %1 ramp-up</source>
        <translation>, nach %1 Anlauf</translation>
    </message>
    <message>
        <source>First it preconditions the targets with the first step&apos;s workload for %1. </source>
        <translation>Zuerst werden die Ziele %1 lang mit der Last des ersten Schritts vorkonditioniert. </translation>
    </message>
    <message>
        <source>128 KiB sequential writes</source>
        <translation>sequenziellen Schreibvorgängen zu 128 KiB</translation>
    </message>
    <message>
        <source>the first step&apos;s workload</source>
        <translation>der Last des ersten Schritts</translation>
    </message>
    <message>
        <source>First it preconditions every target with %1, %2× its capacity (on a 1 TB drive at 1 GB/s, 2× is 35 minutes). </source>
        <translation>Zuerst wird jedes Ziel mit %1 vorkonditioniert, %2× seine Kapazität (auf einem 1-TB-Laufwerk mit 1 GB/s sind 2× 35 Minuten). </translation>
    </message>
    <message>
        <source>First it preconditions every target with %1, %2× its capacity: %3. </source>
        <translation>Zuerst wird jedes Ziel mit %1 vorkonditioniert, %2× seine Kapazität: %3. </translation>
    </message>
    <message>
        <source>What the first axis sweeps: it is set on every line of every spec (size, % read, % random), on every target (outstanding I/Os), runs that many copies of each worker (workers), or puts each point&apos;s I/O in a zone of every target (position: from the value&apos;s % of the target to the next value&apos;s; 0..99:+1 reads the whole span in a hundred zones, a rate-by-position sweep)</source>
        <translation>Was die erste Achse variiert: Sie wird in jeder Zeile jeder Spezifikation gesetzt (Größe, % Lesen, % zufällig), an jedem Ziel (ausstehende I⁠/⁠Os), führt so viele Kopien jedes Workers aus (Worker) oder legt die I⁠/⁠O jedes Punkts in eine Zone jedes Ziels (Position: vom % des Werts am Ziel bis zu dem des nächsten Werts; 0..99:+1 liest die ganze Spanne in hundert Zonen, eine Messung der Übertragungsrate nach Position)</translation>
    </message>
    <message>
        <source>Position (%)</source>
        <translation>Position (%)</translation>
    </message>
    <message>
        <source>How many times each step runs in a row (CrystalDiskMark&apos;s passes), 1 to 100. Each pass is kept as a step of its own; the summary shows each test&apos;s best pass with the mean and the spread of its passes. A series repeats its points with its Repetitions instead.</source>
        <translation>Wie oft jeder Schritt nacheinander läuft (die Durchläufe von CrystalDiskMark), 1 bis 100. Jeder Durchlauf bleibt als eigener Schritt erhalten; die Übersicht zeigt den besten Durchlauf jedes Tests mit Mittel und Streuung seiner Durchläufe. Eine Serie wiederholt ihre Punkte stattdessen mit ihren Wiederholungen.</translation>
    </message>
    <message>
        <source>An idle pause before each test but the first (not between the passes of a test), with no I/O, so that a drive can drain its SLC cache before the next test (CrystalDiskMark&apos;s interval), e.g. 5s; 0 for none</source>
        <translation>Eine Ruhepause vor jedem Test außer dem ersten (nicht zwischen den Durchläufen eines Tests), ohne E/A, damit ein Laufwerk seinen SLC-Cache vor dem nächsten Test leeren kann (das Intervall von CrystalDiskMark), z. B. 5s; 0 für keine</translation>
    </message>
    <message>
        <source>pa&amp;use between tests:</source>
        <translation>Pa&amp;use zwischen Tests:</translation>
    </message>
    <message>
        <source>&amp;Passes per test:</source>
        <translation>&amp;Durchläufe je Test:</translation>
    </message>
    <message>
        <source> (%1 tests of %2 passes each)</source>
        <translation> (%1 Tests zu je %2 Durchläufen)</translation>
    </message>
    <message numerus="yes">
        <source>, plus %n pauses of %1 between tests (%2)</source>
        <translation>
            <numerusform>, dazu %n Pause von %1 zwischen den Tests (%2)</numerusform>
            <numerusform>, dazu %n Pausen von %1 zwischen den Tests (%2)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SizeEditor</name>
    <message>
        <source>Binary units: 1 KiB = 1024 B</source>
        <translation>Binäre Einheiten: 1 KiB = 1024 B</translation>
    </message>
    <message>
        <source>Number of units, or a size with its unit (512B, 4k, 64KiB, 1m, 1.5GiB): units are binary, as in the CLI</source>
        <translation>Anzahl der Einheiten, oder eine Größe mit Einheit (512B, 4k, 64KiB, 1m, 1.5GiB): Einheiten sind binär, wie in der CLI</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SpecLibraryModel</name>
    <message>
        <source>An access specification of this profile. Double-click the name to rename it; edit its lines below.</source>
        <translation>Eine Zugriffsspezifikation dieses Profils. Doppelklick auf den Namen benennt sie um; ihre Zeilen unten bearbeiten.</translation>
    </message>
    <message>
        <source>Built-in spec from the &quot;%1&quot; preset: assign it or copy it to use it.</source>
        <translation>Eingebaute Spezifikation aus der Vorlage „%1“: zuweisen oder kopieren, um sie zu nutzen.</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>preset: %1</source>
        <translation>Vorlage: %1</translation>
    </message>
    <message>
        <source>Where the spec comes from: this profile, or a built-in preset</source>
        <translation>Woher die Spezifikation stammt: dieses Profil oder eine eingebaute Vorlage</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>The spec&apos;s name (workers refer to it by name)</source>
        <translation>Der Name der Spezifikation (Worker verweisen über den Namen darauf)</translation>
    </message>
    <message>
        <source>Transfer size, read and random mix of a one-line spec</source>
        <translation>Transfergröße, Lese- und Zufallsanteil einer einzeiligen Spezifikation</translation>
    </message>
    <message>
        <source>This profile, or a built-in preset</source>
        <translation>Dieses Profil oder eine eingebaute Vorlage</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SpecLineDelegate</name>
    <message>
        <source>sector</source>
        <translation>Sektor</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>e.g. 0, 5ms, 1s</source>
        <translation>z. B. 0, 5ms, 1s</translation>
    </message>
    <message>
        <source>e.g. 0, 100us, 2ms</source>
        <translation>z. B. 0, 100us, 2ms</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SpecLinesModel</name>
    <message>
        <source>uniform</source>
        <translation>gleichverteilt</translation>
    </message>
    <message>
        <source>zipf θ=%1</source>
        <translation>Zipf θ=%1</translation>
    </message>
    <message>
        <source>pareto h=%1</source>
        <translation>Pareto h=%1</translation>
    </message>
    <message>
        <source>normal σ=%1 %</source>
        <translation>normal σ=%1 %</translation>
    </message>
    <message>
        <source>zones %1</source>
        <translation>Zonen %1</translation>
    </message>
    <message>
        <source>≤ %1 IOPS</source>
        <translation>≤ %1 IOPS</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>repeating 0x%1</source>
        <translation>wiederholt 0x%1</translation>
    </message>
    <message>
        <source>pseudo-random</source>
        <translation>pseudozufällig</translation>
    </message>
    <message>
        <source>full random</source>
        <translation>voll zufällig</translation>
    </message>
    <message>
        <source>zeros</source>
        <translation>Nullen</translation>
    </message>
    <message>
        <source>compressible %1 %</source>
        <translation>komprimierbar %1 %</translation>
    </message>
    <message>
        <source>worker&apos;s</source>
        <translation>des Workers</translation>
    </message>
    <message>
        <source>sector</source>
        <translation>Sektor</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>% of spec</source>
        <translation>% der Spez.</translation>
    </message>
    <message>
        <source>% read</source>
        <translation>% Lesen</translation>
    </message>
    <message>
        <source>% random</source>
        <translation>% zufällig</translation>
    </message>
    <message>
        <source>Delay</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Burst</source>
        <translation>Burst</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>Ausrichtung</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Verteilung</translation>
    </message>
    <message>
        <source>Rate limit</source>
        <translation>Ratenlimit</translation>
    </message>
    <message>
        <source>Think time</source>
        <translation>Denkzeit</translation>
    </message>
    <message>
        <source>Data pattern</source>
        <translation>Datenmuster</translation>
    </message>
    <message>
        <source>Transfer size of each I/O (512, 4k, 64KiB, 1M...)</source>
        <translation>Transfergröße jedes I⁠/⁠O (512, 4k, 64KiB, 1M...)</translation>
    </message>
    <message>
        <source>Share of this spec&apos;s I/Os that follow this line; the lines sum to 100 %</source>
        <translation>Anteil der I⁠/⁠Os dieser Spezifikation, die dieser Zeile folgen; die Zeilen ergeben zusammen 100 %</translation>
    </message>
    <message>
        <source>Percentage of reads (the rest are writes), 0 to 100</source>
        <translation>Anteil der Lesevorgänge in Prozent (der Rest sind Schreibvorgänge), 0 bis 100</translation>
    </message>
    <message>
        <source>Percentage of random offsets (the rest are sequential), 0 to 100</source>
        <translation>Anteil zufälliger Offsets in Prozent (der Rest ist sequenziell), 0 bis 100</translation>
    </message>
    <message>
        <source>Pause before each burst (e.g. 0, 5ms, 1s)</source>
        <translation>Pause vor jedem Burst (z. B. 0, 5ms, 1s)</translation>
    </message>
    <message>
        <source>Number of I/Os in each burst</source>
        <translation>Anzahl der I⁠/⁠Os in jedem Burst</translation>
    </message>
    <message>
        <source>Offsets are multiples of this; 0 = the device&apos;s sector</source>
        <translation>Offsets sind Vielfache davon; 0 = der Sektor des Geräts</translation>
    </message>
    <message>
        <source>Size of the reply I/O after each request; 0 = no reply</source>
        <translation>Größe des Antwort-I⁠/⁠O nach jeder Anfrage; 0 = keine Antwort</translation>
    </message>
    <message>
        <source>How random offsets spread over the region: uniform (Iometer), zipf, pareto, normal, hot zones</source>
        <translation>Wie sich zufällige Offsets über den Bereich verteilen: gleichverteilt (Iometer), Zipf, Pareto, normalverteilt, Hot Zones</translation>
    </message>
    <message>
        <source>Upper bound on IOPS and MB/s for this line; unlimited by default</source>
        <translation>Obergrenze für IOPS und MB/s dieser Zeile; standardmäßig unbegrenzt</translation>
    </message>
    <message>
        <source>Pause after each I/O completes, before the next (e.g. 0, 100us, 2ms)</source>
        <translation>Pause nach dem Abschluss jedes I⁠/⁠O, vor dem nächsten (z. B. 0, 100us, 2ms)</translation>
    </message>
    <message>
        <source>What writes contain: the worker&apos;s pattern, or this line&apos;s own</source>
        <translation>Was Schreibvorgänge enthalten: das Muster des Workers oder das eigene dieser Zeile</translation>
    </message>
    <message>
        <source>%1 (a built-in spec: copy it to your specs to edit it)</source>
        <translation>%1 (eine eingebaute Spezifikation: zum Bearbeiten in Ihre Spezifikationen kopieren)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SpecsPage</name>
    <message>
        <source>Library</source>
        <translation>Bibliothek</translation>
    </message>
    <message>
        <source>The profile&apos;s specifications, then the presets&apos; (in italics). Select one to edit it below; double-click to assign it.</source>
        <translation>Die Spezifikationen des Profils, dann die der Vorlagen (kursiv). Eine wählen, um sie unten zu bearbeiten; Doppelklick weist sie zu.</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>A new specification with one default line</source>
        <translation>Eine neue Spezifikation mit einer Standardzeile</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Duplizieren</translation>
    </message>
    <message>
        <source>A copy of the selected specification in this profile</source>
        <translation>Eine Kopie der gewählten Spezifikation in diesem Profil</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected specification from this profile (and from every worker)</source>
        <translation>Die gewählte Spezifikation aus diesem Profil löschen (und aus jedem Worker)</translation>
    </message>
    <message>
        <source>Assign</source>
        <translation>Zuweisen</translation>
    </message>
    <message>
        <source>Append the selected spec to the worker&apos;s run order</source>
        <translation>Die gewählte Spezifikation an die Laufreihenfolge des Workers anhängen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected step from the worker&apos;s run order</source>
        <translation>Den gewählten Schritt aus der Laufreihenfolge des Workers entfernen</translation>
    </message>
    <message>
        <source>Assigned to the worker</source>
        <translation>Dem Worker zugewiesen</translation>
    </message>
    <message>
        <source>The selected worker&apos;s specs in run order: step N of a run is every worker&apos;s Nth spec</source>
        <translation>Die Spezifikationen des gewählten Workers in Laufreihenfolge: Schritt N eines Laufs ist die N-te Spezifikation jedes Workers</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Run this spec earlier</source>
        <translation>Diese Spezifikation früher ausführen</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Runter</translation>
    </message>
    <message>
        <source>Run this spec later</source>
        <translation>Diese Spezifikation später ausführen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Queue depth:</source>
        <translation>&amp;Warteschlangentiefe:</translation>
    </message>
    <message>
        <source>worker&apos;s</source>
        <translation>des Workers</translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation>&amp;Threads:</translation>
    </message>
    <message>
        <source>1</source>
        <translation>1</translation>
    </message>
    <message>
        <source>Copy this built-in spec into the profile to edit it</source>
        <translation>Diese eingebaute Spezifikation ins Profil kopieren, um sie zu bearbeiten</translation>
    </message>
    <message>
        <source>The spec&apos;s lines. Double-click a cell (or type) to edit it; a red cell has a problem, named in its tooltip.</source>
        <translation>Die Zeilen der Spezifikation. Doppelklick auf eine Zelle (oder Tippen) bearbeitet sie; eine rote Zelle hat ein Problem, das ihr Tooltip nennt.</translation>
    </message>
    <message>
        <source>Add line</source>
        <translation>Zeile hinzufügen</translation>
    </message>
    <message>
        <source>Add a line after the selected one (up to 100)</source>
        <translation>Eine Zeile nach der gewählten hinzufügen (bis zu 100)</translation>
    </message>
    <message>
        <source>Remove line</source>
        <translation>Zeile entfernen</translation>
    </message>
    <message>
        <source>Remove the selected line</source>
        <translation>Die gewählte Zeile entfernen</translation>
    </message>
    <message>
        <source>Move the selected line up</source>
        <translation>Die gewählte Zeile nach oben verschieben</translation>
    </message>
    <message>
        <source>Move the selected line down</source>
        <translation>Die gewählte Zeile nach unten verschieben</translation>
    </message>
    <message>
        <source>Run order of %1:</source>
        <translation>Laufreihenfolge von %1:</translation>
    </message>
    <message>
        <source>No worker selected</source>
        <translation>Kein Worker gewählt</translation>
    </message>
    <message>
        <source>No specification selected</source>
        <translation>Keine Spezifikation gewählt</translation>
    </message>
    <message>
        <source>Built-in specification</source>
        <translation>Eingebaute Spezifikation</translation>
    </message>
    <message>
        <source>Specification &quot;%1&quot;</source>
        <translation>Spezifikation „%1“</translation>
    </message>
    <message>
        <source>The spec&apos;s name; workers refer to it by name</source>
        <translation>Der Name der Spezifikation; Worker verweisen über den Namen darauf</translation>
    </message>
    <message>
        <source>CrystalDiskMark-style queue depth (the Q in Q32T1): every worker running this spec keeps this many I/Os in flight per target. &quot;worker&apos;s&quot; = the worker&apos;s setting.</source>
        <translation>Warteschlangentiefe wie bei CrystalDiskMark (das Q in Q32T1): Jeder Worker, der diese Spezifikation ausführt, hält so viele I⁠/⁠Os je Ziel unterwegs. „des Workers“ = die Einstellung des Workers.</translation>
    </message>
    <message>
        <source>CrystalDiskMark-style threads (the T in Q32T16): the spec runs on this many copies of each assigned worker</source>
        <translation>Threads wie bei CrystalDiskMark (das T in Q32T16): Die Spezifikation läuft auf so vielen Kopien jedes zugewiesenen Workers</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is already the name of another spec</source>
        <translation>„%1“ ist schon der Name einer anderen Spezifikation</translation>
    </message>
    <message>
        <source>Copy to my specs</source>
        <translation>In meine Spezifikationen kopieren</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a built-in spec (%2), its lines shown read-only. Copy it to your specs to edit it, or assign it: assigning copies it too.</source>
        <translation>„%1“ ist eine eingebaute Spezifikation (%2); ihre Zeilen werden schreibgeschützt gezeigt. Zum Bearbeiten in Ihre Spezifikationen kopieren oder zuweisen: Zuweisen kopiert sie ebenfalls.</translation>
    </message>
    <message>
        <source>Run order of %1 on %2:</source>
        <translation>Laufreihenfolge von %1 auf %2:</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::SteadyStateBox</name>
    <message>
        <source>The length of a round (PTS: 1 minute; e.g. 30s, 1m). Each round gives one figure; at least the sampling interval.</source>
        <translation>Die Länge einer Runde (PTS: 1 Minute; z. B. 30s, 1m). Jede Runde ergibt einen Wert; mindestens das Messintervall.</translation>
    </message>
    <message>
        <source>Rounds judged together, the last ones each time (PTS: 5)</source>
        <translation>Runden, die zusammen beurteilt werden, jedes Mal die letzten (PTS: 5)</translation>
    </message>
    <message>
        <source>At most this many rounds per step: then the step ends and the results say &quot;steady state not reached&quot; (PTS: 25)</source>
        <translation>Höchstens so viele Runden je Schritt: dann endet der Schritt, und die Ergebnisse sagen „eingeschwungener Zustand nicht erreicht“ (PTS: 25)</translation>
    </message>
    <message>
        <source>PTS: the window&apos;s largest and smallest figures differ by at most this share of its mean (20 %). fio deviation (iops:X%): every round of the window within this share of the mean.</source>
        <translation>PTS: Der größte und der kleinste Wert des Fensters unterscheiden sich um höchstens diesen Anteil seines Mittelwerts (20 %). fio-Abweichung (iops:X%): Jede Runde des Fensters liegt innerhalb dieses Anteils vom Mittelwert.</translation>
    </message>
    <message>
        <source>PTS: the least-squares line through the window&apos;s figures changes by at most this share of the mean across the window (10 %). fio slope (iops_slope:X%): the line&apos;s slope per round below this share of the mean.</source>
        <translation>PTS: Die Ausgleichsgerade durch die Werte des Fensters ändert sich über das Fenster um höchstens diesen Anteil des Mittelwerts (10 %). fio-Steigung (iops_slope:X%): Die Steigung der Geraden je Runde liegt unter diesem Anteil des Mittelwerts.</translation>
    </message>
    <message>
        <source>Stop at steady state (SNIA PTS)</source>
        <translation>Beim eingeschwungenen Zustand stoppen (SNIA PTS)</translation>
    </message>
    <message>
        <source>Run every step in rounds until its figures stop moving, instead of for the run time: after each round the last rounds (the window) are judged, and the first steady window ends the step. At the round limit the results say &quot;steady state not reached&quot;, never steady. The results keep every round and name the window&apos;s.</source>
        <translation>Jeden Schritt in Runden ausführen, bis sich seine Werte nicht mehr bewegen, statt für die Laufzeit: Nach jeder Runde werden die letzten Runden (das Fenster) beurteilt, und das erste eingeschwungene Fenster beendet den Schritt. An der Rundengrenze sagen die Ergebnisse „eingeschwungener Zustand nicht erreicht“, nie eingeschwungen. Die Ergebnisse behalten jede Runde und nennen die des Fensters.</translation>
    </message>
    <message>
        <source>PTS: range and slope</source>
        <translation>PTS: Spanne und Steigung</translation>
    </message>
    <message>
        <source>SNIA PTS: the window&apos;s range within 20 % of its mean and its fitted line&apos;s excursion within 10 %</source>
        <translation>SNIA PTS: die Spanne des Fensters innerhalb von 20 % seines Mittelwerts und die Auslenkung seiner Ausgleichsgeraden innerhalb von 10 %</translation>
    </message>
    <message>
        <source>fio deviation</source>
        <translation>fio-Abweichung</translation>
    </message>
    <message>
        <source>fio&apos;s iops:X%: every round within X % of the window&apos;s mean</source>
        <translation>fios iops:X%: jede Runde innerhalb von X % des Mittelwerts des Fensters</translation>
    </message>
    <message>
        <source>fio slope</source>
        <translation>fio-Steigung</translation>
    </message>
    <message>
        <source>fio&apos;s iops_slope:X%: the fitted line&apos;s slope per round below X % of the mean; an oscillation has none, so it passes</source>
        <translation>fios iops_slope:X%: die Steigung der Ausgleichsgeraden je Runde unter X % des Mittelwerts; eine Schwingung hat keine, also besteht sie</translation>
    </message>
    <message>
        <source>How the window is judged (docs/ssd-testing.md)</source>
        <translation>Wie das Fenster beurteilt wird (docs/ssd-testing.md)</translation>
    </message>
    <message>
        <source>R&amp;ule:</source>
        <translation>&amp;Regel:</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/s</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>Mittlere Latenz</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>p99.9 latency</source>
        <translation>p99,9-Latenz</translation>
    </message>
    <message>
        <source>A round&apos;s figure: reads and writes together, over the round</source>
        <translation>Der Wert einer Runde: Lese- und Schreibzugriffe zusammen, über die Runde</translation>
    </message>
    <message>
        <source>&amp;Judged on:</source>
        <translation>&amp;Beurteilt nach:</translation>
    </message>
    <message>
        <source>Round &amp;length:</source>
        <translation>Runden&amp;länge:</translation>
    </message>
    <message>
        <source>&amp;Window:</source>
        <translation>&amp;Fenster:</translation>
    </message>
    <message>
        <source>Round li&amp;mit:</source>
        <translation>Runden&amp;grenze:</translation>
    </message>
    <message>
        <source>Ra&amp;nge limit:</source>
        <translation>Grenze der &amp;Spanne:</translation>
    </message>
    <message>
        <source>Sl&amp;ope limit:</source>
        <translation>Grenze der S&amp;teigung:</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration of whole milliseconds (e.g. 30s, 1m)</source>
        <translation>„%1“ ist keine Dauer in ganzen Millisekunden (z. B. 30s, 1m)</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::StepSummaryModel</name>
    <message>
        <source>%1 (cut short)</source>
        <translation>%1 (abgebrochen)</translation>
    </message>
    <message>
        <source>No device counters for this step</source>
        <translation>Keine Gerätezähler für diesen Schritt</translation>
    </message>
    <message>
        <source>Step %1: %2. Click to show its detailed results below; Ctrl+C copies the grid (right-click for CSV, Markdown or a file).</source>
        <translation>Schritt %1: %2. Klicken zeigt unten seine ausführlichen Ergebnisse; Strg+C kopiert die Übersicht (Rechtsklick für CSV, Markdown oder eine Datei).</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>Mittlere Latenz</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Read throughput over the step&apos;s measured time (decimal MB/s)</source>
        <translation>Lesedurchsatz über die gemessene Zeit des Schritts (dezimale MB/s)</translation>
    </message>
    <message>
        <source>Write throughput over the step&apos;s measured time (decimal MB/s)</source>
        <translation>Schreibdurchsatz über die gemessene Zeit des Schritts (dezimale MB/s)</translation>
    </message>
    <message>
        <source>Read and write I/Os per second together</source>
        <translation>Lese- und Schreib-I⁠/⁠Os pro Sekunde zusammen</translation>
    </message>
    <message>
        <source>Completion latency of all the step&apos;s I/Os, on IOPrism&apos;s own clock</source>
        <translation>Abschlusslatenz aller I⁠/⁠Os des Schritts, gemessen mit IOPrisms eigener Uhr</translation>
    </message>
    <message>
        <source>Whether the devices&apos; own counters confirm the application&apos;s figures</source>
        <translation>Ob die eigenen Zähler der Geräte die Zahlen der Anwendung bestätigen</translation>
    </message>
    <message>
        <source>The step: the access specification(s) the workers ran together</source>
        <translation>Der Schritt: die Zugriffsspezifikation(en), die die Worker zusammen ausführten</translation>
    </message>
    <message>
        <source>Files/s</source>
        <translation>Dateien/s</translation>
    </message>
    <message>
        <source>Files opened per second: a file tree&apos;s operations, or targets reopened by Iometer&apos;s connection rate</source>
        <translation>Geöffnete Dateien pro Sekunde: die Operationen eines Dateibaums oder die von der Verbindungsrate von Iometer neu geöffneten Ziele</translation>
    </message>
    <message>
        <source>best of %1 (of %2)</source>
        <translation>bester von %1 (von %2)</translation>
    </message>
    <message>
        <source>best of %1</source>
        <translation>bester von %1</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>%1: the best of its %2 passes (step %3). Click to show that pass&apos;s detailed results below; every pass is in the step list.</source>
        <translation>%1: der beste seiner %2 Durchläufe (Schritt %3). Klicken zeigt die Einzelergebnisse dieses Durchlaufs unten; jeder Durchlauf steht in der Schrittliste.</translation>
    </message>
    <message>
        <source>Passes</source>
        <translation>Durchläufe</translation>
    </message>
    <message>
        <source>Mean of passes</source>
        <translation>Mittel der Durchläufe</translation>
    </message>
    <message>
        <source>Passes min – max</source>
        <translation>Durchläufe min – max</translation>
    </message>
    <message>
        <source>The test ran several passes (CrystalDiskMark&apos;s count): the figures of the row are its best pass&apos;s, the one with the most MB/s</source>
        <translation>Der Test lief in mehreren Durchläufen (die Anzahl von CrystalDiskMark): die Werte der Zeile sind die seines besten Durchlaufs, des mit den meisten MB/s</translation>
    </message>
    <message>
        <source>The mean throughput of the test&apos;s passes, reads and writes together (decimal MB/s)</source>
        <translation>Der mittlere Durchsatz der Durchläufe des Tests, Lesen und Schreiben zusammen (dezimale MB/s)</translation>
    </message>
    <message>
        <source>The smallest and the largest throughput among the test&apos;s passes: how far one pass can be from another</source>
        <translation>Der kleinste und der größte Durchsatz unter den Durchläufen des Tests: wie weit ein Durchlauf vom anderen abweichen kann</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::TargetDelegate</name>
    <message>
        <source>to the end</source>
        <translation>bis zum Ende</translation>
    </message>
    <message>
        <source>worker&apos;s</source>
        <translation>des Workers</translation>
    </message>
    <message>
        <source>Direct</source>
        <translation>Direkt</translation>
    </message>
    <message>
        <source>Buffered</source>
        <translation>Gepuffert</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::TargetsModel</name>
    <message>
        <source>Test file</source>
        <translation>Testdatei</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Festplatte</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Physical drive</source>
        <translation>Physisches Laufwerk</translation>
    </message>
    <message>
        <source>mounted at %1</source>
        <translation>eingehängt unter %1</translation>
    </message>
    <message>
        <source>Tick to let the selected worker use %1 raw. Writing to a raw device destroys its data: IOPrism asks before it writes and refuses while the device is mounted.</source>
        <translation>Ankreuzen, damit der gewählte Worker %1 roh nutzt. Schreiben auf ein Rohgerät zerstört seine Daten: IOPrism fragt vor dem Schreiben nach und verweigert es, solange das Gerät eingehängt ist.</translation>
    </message>
    <message>
        <source>Tick to let the selected worker use the test file %1. IOPrism creates and fills it (never sparse) before the first run.</source>
        <translation>Ankreuzen, damit der gewählte Worker die Testdatei %1 nutzt. IOPrism legt sie vor dem ersten Lauf an und füllt sie (nie dünn besetzt).</translation>
    </message>
    <message>
        <source>Device size: %L1 bytes</source>
        <translation>Gerätegröße: %L1 Byte</translation>
    </message>
    <message>
        <source>HDD</source>
        <translation>HDD</translation>
    </message>
    <message>
        <source>SSD</source>
        <translation>SSD</translation>
    </message>
    <message>
        <source>Free space where the test file goes</source>
        <translation>Freier Platz am Ort der Testdatei</translation>
    </message>
    <message>
        <source>Outstanding I/Os (queue depth) on this target; empty = the worker&apos;s value. A spec&apos;s queue depth (QD in its name) overrides both.</source>
        <translation>Ausstehende I⁠/⁠Os (Warteschlangentiefe) auf diesem Ziel; leer = der Wert des Workers. Die Warteschlangentiefe einer Spezifikation (QD im Namen) hat Vorrang vor beiden.</translation>
    </message>
    <message>
        <source>Where the tested region starts (bytes; 4k, 1M, 2G...)</source>
        <translation>Wo der getestete Bereich beginnt (Byte; 4k, 1M, 2G...)</translation>
    </message>
    <message>
        <source>Size of the tested region; 0 = to the end of the target</source>
        <translation>Größe des getesteten Bereichs; 0 = bis zum Ende des Ziels</translation>
    </message>
    <message>
        <source>Size of the test file IOPrism creates and fills</source>
        <translation>Größe der Testdatei, die IOPrism anlegt und füllt</translation>
    </message>
    <message>
        <source>worker (%1)</source>
        <translation>Worker (%1)</translation>
    </message>
    <message>
        <source>to the end</source>
        <translation>bis zum Ende</translation>
    </message>
    <message>
        <source>Direct</source>
        <translation>Direkt</translation>
    </message>
    <message>
        <source>Buffered</source>
        <translation>Gepuffert</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Media</source>
        <translation>Medium</translation>
    </message>
    <message>
        <source>Mounted at</source>
        <translation>Eingehängt unter</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>Frei</translation>
    </message>
    <message>
        <source>Outstanding I/Os</source>
        <translation>Ausstehende I/Os</translation>
    </message>
    <message>
        <source>Region start</source>
        <translation>Bereichsanfang</translation>
    </message>
    <message>
        <source>Region size</source>
        <translation>Bereichsgröße</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>Cache</translation>
    </message>
    <message>
        <source>Write-through</source>
        <translation>Write-through</translation>
    </message>
    <message>
        <source>Tick the targets the selected worker uses</source>
        <translation>Die Ziele ankreuzen, die der gewählte Worker nutzt</translation>
    </message>
    <message>
        <source>Queue depth per target (empty: the worker&apos;s)</source>
        <translation>Warteschlangentiefe je Ziel (leer: die des Workers)</translation>
    </message>
    <message>
        <source>Offset where the tested region starts</source>
        <translation>Offset, an dem der getestete Bereich beginnt</translation>
    </message>
    <message>
        <source>Length of the tested region (0: to the end)</source>
        <translation>Länge des getesteten Bereichs (0: bis zum Ende)</translation>
    </message>
    <message>
        <source>Direct I/O (bypass the OS cache) or buffered</source>
        <translation>Direktes I⁠/⁠O (am Cache des Betriebssystems vorbei) oder gepuffert</translation>
    </message>
    <message>
        <source>Writes reach stable storage before they complete</source>
        <translation>Schreibvorgänge erreichen dauerhaften Speicher, bevor sie abschließen</translation>
    </message>
    <message>
        <source>Not found on this machine: double-click it (or use its context menu) to re-point it to a device or file.</source>
        <translation>Auf diesem Rechner nicht gefunden: doppelklicken (oder das Kontextmenü verwenden), um es einem Gerät oder einer Datei neu zuzuordnen.</translation>
    </message>
    <message>
        <source>The test file as it is now: %L1 bytes. IOPrism fills it to the test-file size before the run.</source>
        <translation>Die Testdatei, wie sie jetzt ist: %L1 Bytes. IOPrism füllt sie vor dem Lauf auf die Testdateigröße.</translation>
    </message>
    <message>
        <source>No test file here yet: IOPrism creates it at the test-file size before the first run.</source>
        <translation>Hier noch keine Testdatei: IOPrism legt sie vor dem ersten Lauf in der Testdateigröße an.</translation>
    </message>
    <message>
        <source>Free space where the test file goes: %1 of %2 on the file system mounted at %3</source>
        <translation>Freier Platz am Ort der Testdatei: %1 von %2 im unter %3 eingehängten Dateisystem</translation>
    </message>
    <message>
        <source>File tree</source>
        <translation>Dateibaum</translation>
    </message>
    <message>
        <source>No folder chosen for the file tree.</source>
        <translation>Kein Ordner für den Dateibaum gewählt.</translation>
    </message>
    <message>
        <source>%1 is a file: a file tree needs a folder to be made in.</source>
        <translation>%1 ist eine Datei: ein Dateibaum braucht einen Ordner, in dem er angelegt wird.</translation>
    </message>
    <message>
        <source>Tick to let the selected worker use the file tree in %1: each I/O opens a file of the tree, reads or writes it once and closes it. IOPrism makes the folders and fills the files (never sparse) before the first run, and never writes into a folder it did not make.</source>
        <translation>Ankreuzen, damit der gewählte Worker den Dateibaum in %1 nutzt: jede I⁠/⁠O öffnet eine Datei des Baums, liest oder schreibt sie einmal und schließt sie. IOPrism legt die Ordner vor dem ersten Lauf an und füllt die Dateien (nie dünn besetzt); in einen Ordner, den es nicht angelegt hat, schreibt es nie.</translation>
    </message>
    <message>
        <source>Whole disk, partition, or a test file or file tree on a mounted file system</source>
        <translation>Ganze Festplatte, Partition oder eine Testdatei oder ein Dateibaum auf einem eingehängten Dateisystem</translation>
    </message>
    <message>
        <source>The file tree IOPrism made here: %L1 bytes. It is reused when its shape is the one asked for, else made again.</source>
        <translation>Der Dateibaum, den IOPrism hier angelegt hat: %L1 Bytes. Er wird wiederverwendet, wenn seine Form der verlangten entspricht, sonst neu angelegt.</translation>
    </message>
    <message>
        <source>No file tree here yet: IOPrism makes it (folders and filled files) before the first run.</source>
        <translation>Hier ist noch kein Dateibaum: IOPrism legt ihn (Ordner und gefüllte Dateien) vor dem ersten Lauf an.</translation>
    </message>
    <message>
        <source>Free space where the file tree goes</source>
        <translation>Freier Platz am Ort des Dateibaums</translation>
    </message>
    <message>
        <source>Free space where the file tree goes: %1 of %2 on the file system mounted at %3</source>
        <translation>Freier Platz am Ort des Dateibaums: %1 von %2 auf dem unter %3 eingehängten Dateisystem</translation>
    </message>
    <message>
        <source>The file tree&apos;s shape: levels × files per level × size of each file = its total. Edit it in the File tree panel under the table (double-click here).</source>
        <translation>Die Form des Dateibaums: Ebenen × Dateien je Ebene × Größe jeder Datei = seine Gesamtgröße. Sie wird im Feld „Dateibaum“ unter der Tabelle bearbeitet (hier doppelklicken).</translation>
    </message>
    <message>
        <source>Size to create</source>
        <translation>Anzulegende Größe</translation>
    </message>
    <message>
        <source>Size of a disk or partition; for a test file or file tree, as it is now</source>
        <translation>Größe eines Datenträgers oder einer Partition; bei einer Testdatei oder einem Dateibaum die jetzige</translation>
    </message>
    <message>
        <source>Free space on the file system of a test file or file tree</source>
        <translation>Freier Platz im Dateisystem einer Testdatei oder eines Dateibaums</translation>
    </message>
    <message>
        <source>Size of the test file to create, or the shape of the file tree</source>
        <translation>Größe der anzulegenden Testdatei oder die Form des Dateibaums</translation>
    </message>
    <message>
        <source>%1 × %2 × %3 = %4</source>
        <translation>%1 × %2 × %3 = %4</translation>
    </message>
    <message>
        <source>in use: %1</source>
        <translation>in Benutzung: %1</translation>
    </message>
    <message>
        <source>file tree</source>
        <translation>Dateibaum</translation>
    </message>
    <message>
        <source>test file</source>
        <translation>Testdatei</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>%1 free</source>
        <translation>%1 frei</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>The folder %1 does not exist: the run creates no folders. Create it, or double-click the row to choose another place.</source>
        <translation>Der Ordner %1 existiert nicht: Der Lauf legt keine Ordner an. Legen Sie ihn an oder doppelklicken Sie auf die Zeile, um einen anderen Ort zu wählen.</translation>
    </message>
    <message>
        <source>your own rights suffice</source>
        <translation>Ihre eigenen Rechte genügen</translation>
    </message>
    <message>
        <source>the system asks for your permission first (udisks2)</source>
        <translation>das System fragt Sie zuerst um Erlaubnis (udisks2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>IOPrism makes and opens test files and file trees with your own rights</source>
        <translation>IOPrism legt Testdateien und Dateibäume mit Ihren eigenen Rechten an und öffnet sie damit</translation>
    </message>
    <message>
        <source>Yours</source>
        <translation>Ihres</translation>
    </message>
    <message>
        <source>Asks permission</source>
        <translation>Fragt um Erlaubnis</translation>
    </message>
    <message>
        <source>Read only</source>
        <translation>Nur lesbar</translation>
    </message>
    <message>
        <source>No access</source>
        <translation>Kein Zugriff</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>Writing</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Zugriff</translation>
    </message>
    <message>
        <source>Whether you may open a disk or partition now (Yours), the system asks for your permission when the run starts (Asks permission), or it cannot be opened (No access; Read only: not for writing). The tooltip of each row says why and what would help.</source>
        <translation>Ob Sie eine Festplatte oder Partition jetzt öffnen dürfen (Ihres), das System Sie beim Start des Laufs um Erlaubnis fragt (Fragt um Erlaubnis) oder sie nicht geöffnet werden kann (Kein Zugriff; Nur lesbar: nicht zum Schreiben). Der Tooltip jeder Zeile sagt, warum, und was helfen würde.</translation>
    </message>
    <message>
        <source>Not enough space: %1 more is needed here, and %2 is free on %3. Make it smaller or choose another place.</source>
        <translation>Nicht genug Platz: Hier werden %1 mehr gebraucht, und auf %3 sind %2 frei. Machen Sie es kleiner oder wählen Sie einen anderen Ort.</translation>
    </message>
    <message>
        <source>HDD: rotational; SSD: not rotational (as the system reports it)</source>
        <translation>HDD: rotierend; SSD: nicht rotierend (laut System)</translation>
    </message>
    <message>
        <source>Direct: bypass the OS cache (O_DIRECT; FILE_FLAG_NO_BUFFERING on Windows), to measure the device. Buffered: through the OS cache.</source>
        <translation>Direkt: am Cache des Betriebssystems vorbei (O_DIRECT; unter Windows FILE_FLAG_NO_BUFFERING), um das Gerät zu messen. Gepuffert: über den Cache des Betriebssystems.</translation>
    </message>
    <message>
        <source>Write-through: every write reaches stable storage (O_DSYNC; FILE_FLAG_WRITE_THROUGH on Windows)</source>
        <translation>Write-through: Jeder Schreibvorgang erreicht dauerhaften Speicher (O_DSYNC; unter Windows FILE_FLAG_WRITE_THROUGH)</translation>
    </message>
    <message>
        <source>A path on %1, not on this machine: IOPrism cannot look at it from here; the agent checks it when the run starts.</source>
        <translation>Ein Pfad auf %1, nicht auf diesem Rechner: IOPrism kann ihn von hier aus nicht prüfen; der Agent prüft ihn, wenn der Lauf beginnt.</translation>
    </message>
    <message>
        <source>Opened on %1 by its agent, with the agent&apos;s rights, when the run starts</source>
        <translation>Wird auf %1 von seinem Agent mit dessen Rechten geöffnet, wenn der Lauf beginnt</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::TargetsPage</name>
    <message>
        <source>Add test file…</source>
        <translation>Testdatei hinzufügen…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>List disks, partitions and mounted file systems again</source>
        <translation>Festplatten, Partitionen und eingehängte Dateisysteme neu auflisten</translation>
    </message>
    <message>
        <source>Raw disks and partitions are read and written directly: IOPrism asks before it writes to one and refuses while it is mounted or in use.</source>
        <translation>Rohe Festplatten und Partitionen werden direkt gelesen und beschrieben: IOPrism fragt, bevor es auf eine schreibt, und verweigert es, solange sie eingehängt oder in Benutzung ist.</translation>
    </message>
    <message>
        <source>Targets of %1</source>
        <translation>Ziele von %1</translation>
    </message>
    <message>
        <source>Select a worker in the topology to choose its targets</source>
        <translation>Einen Worker in der Topologie wählen, um seine Ziele zu bestimmen</translation>
    </message>
    <message>
        <source>Tick a target to let the selected worker use it; double-click a setting of a ticked target to change it; right-click a ticked target to re-point it</source>
        <translation>Ein Ziel ankreuzen, damit der gewählte Worker es verwendet; eine Einstellung eines angekreuzten Ziels doppelklicken, um sie zu ändern; ein angekreuztes Ziel rechtsklicken, um es neu zuzuordnen</translation>
    </message>
    <message>
        <source>Re-point…</source>
        <translation>Neu zuordnen…</translation>
    </message>
    <message>
        <source>Point this target at another device or file; the worker keeps it with its settings</source>
        <translation>Dieses Ziel auf ein anderes Gerät oder eine andere Datei zeigen lassen; der Worker behält es mit seinen Einstellungen</translation>
    </message>
    <message>
        <source>Only a ticked target can be re-pointed</source>
        <translation>Nur ein angekreuztes Ziel kann neu zugeordnet werden</translation>
    </message>
    <message>
        <source>Add file tree…</source>
        <translation>Dateibaum hinzufügen…</translation>
    </message>
    <message>
        <source>The shape of the selected file tree (or of the worker&apos;s first): IOPrism makes it before the first run and reuses it while its shape stays the same</source>
        <translation>Die Form des gewählten Dateibaums (oder des ersten des Workers): IOPrism legt ihn vor dem ersten Lauf an und verwendet ihn wieder, solange seine Form gleich bleibt</translation>
    </message>
    <message>
        <source>File si&amp;ze:</source>
        <translation>Dateigr&amp;öße:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source> operations</source>
        <translation> Operationen</translation>
    </message>
    <message>
        <source>The whole tree (levels × files per level × file size) beside the free space of its file system: IOPrism checks the space before it writes anything</source>
        <translation>Der ganze Baum (Ebenen × Dateien je Ebene × Dateigröße) neben dem freien Platz seines Dateisystems: IOPrism prüft den Platz, bevor es etwas schreibt</translation>
    </message>
    <message>
        <source>File tree in %1</source>
        <translation>Dateibaum in %1</translation>
    </message>
    <message>
        <source>Levels of folders, one inside the other (1 to 64); io_profile&apos;s default is 3</source>
        <translation>Ebenen von Ordnern, einer im anderen (1 bis 64); io_profile nimmt 3</translation>
    </message>
    <message>
        <source>Files in each level&apos;s folder; io_profile&apos;s default is 4. The whole tree holds at most %L1 files.</source>
        <translation>Dateien im Ordner jeder Ebene; io_profile nimmt 4. Der ganze Baum fasst höchstens %L1 Dateien.</translation>
    </message>
    <message>
        <source>Size of each file, filled with data (never sparse); the region applies within each file. io_profile&apos;s default is 4 MiB.</source>
        <translation>Größe jeder Datei, mit Daten gefüllt (nie dünn besetzt); der Bereich gilt innerhalb jeder Datei. io_profile nimmt 4 MiB.</translation>
    </message>
    <message>
        <source>Operations over the tree before the first step is measured, done as the first step&apos;s spec does them and recorded nowhere: io_profile warms the file system&apos;s caches so. None: the first step starts cold.</source>
        <translation>Operationen auf dem Baum, bevor der erste Schritt gemessen wird, so ausgeführt, wie die Spezifikation des ersten Schritts sie ausführt, und nirgends aufgezeichnet: so wärmt io_profile die Caches des Dateisystems an. Keine: der erste Schritt beginnt kalt.</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n files)</source>
        <translation>
            <numerusform>%1 (%n Datei)</numerusform>
            <numerusform>%1 (%n Dateien)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 free on %2</source>
        <translation>%1 frei auf %2</translation>
    </message>
    <message>
        <source>not enough free space</source>
        <translation>nicht genug freier Platz</translation>
    </message>
    <message>
        <source>L&amp;evels:</source>
        <translation>E&amp;benen:</translation>
    </message>
    <message>
        <source>F&amp;iles per level:</source>
        <translation>Dateien &amp;je Ebene:</translation>
    </message>
    <message>
        <source>Pre-initialisation:</source>
        <translation>Vorinitialisierung:</translation>
    </message>
    <message>
        <source>Choose where a test file goes (any folder) and assign it to the selected worker. For a worker of another manager, type its path on that host (a test file, disk or partition).</source>
        <translation>Wählen, wohin eine Testdatei kommt (beliebiger Ordner), und sie dem gewählten Worker zuweisen. Für einen Worker eines anderen Managers den Pfad auf jenem Rechner eingeben (eine Testdatei, Festplatte oder Partition).</translation>
    </message>
    <message>
        <source>Choose a folder for a file tree (io_profile&apos;s many files: each I/O opens a file, reads or writes it once, closes it) and assign it to the selected worker. IOPrism makes the tree in %1 inside that folder, or reuses the tree it made there before. For a worker of another manager, type the folder&apos;s path on that host.</source>
        <translation>Einen Ordner für einen Dateibaum wählen (die vielen Dateien von io_profile: jede I⁠/⁠O öffnet eine Datei, liest oder schreibt sie einmal, schließt sie) und ihn dem gewählten Worker zuweisen. IOPrism legt den Baum in %1 in diesem Ordner an oder verwendet den Baum wieder, den es dort schon angelegt hat. Für einen Worker eines anderen Managers den Pfad des Ordners auf jenem Rechner eingeben.</translation>
    </message>
    <message>
        <source>The Targets page edits the worker selected in the topology, on its manager&apos;s host</source>
        <translation>Die Seite Ziele bearbeitet den in der Topologie gewählten Worker, auf dem Rechner seines Managers</translation>
    </message>
    <message>
        <source>Targets of %1 on %2</source>
        <translation>Ziele von %1 auf %2</translation>
    </message>
    <message>
        <source>These are paths on %1, not on this machine: add one with Add test file… or Add file tree… by typing it as that host names it. Bind the manager to its agent to have the places it allows listed here.</source>
        <translation>Dies sind Pfade auf %1, nicht auf diesem Rechner: Fügen Sie einen mit „Testdatei hinzufügen…“ oder „Dateibaum hinzufügen…“ hinzu, indem Sie ihn so eingeben, wie jener Rechner ihn nennt. Binden Sie den Manager an seinen Agent, damit die Orte, die er erlaubt, hier aufgeführt werden.</translation>
    </message>
    <message>
        <source>These are paths on %1, not on this machine: the rows are the places its agent allows, as it reported them when it was reached; add others by typing them (Add test file…, Add file tree…).</source>
        <translation>Dies sind Pfade auf %1, nicht auf diesem Rechner: Die Zeilen sind die Orte, die sein Agent erlaubt, wie er sie beim Verbinden gemeldet hat; weitere fügen Sie hinzu, indem Sie sie eingeben („Testdatei hinzufügen…“, „Dateibaum hinzufügen…“).</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::TopologyModel</name>
    <message>
        <source>This host (%1)</source>
        <translation>Dieser Rechner (%1)</translation>
    </message>
    <message>
        <source>The machine IOPrism runs on. Its workers run their assigned access specifications together, step by step.</source>
        <translation>Der Rechner, auf dem IOPrism läuft. Seine Worker führen ihre zugewiesenen Zugriffsspezifikationen gemeinsam aus, Schritt für Schritt.</translation>
    </message>
    <message>
        <source>%1: %2, %3 per target, %4 assigned. Double-click or F2 to rename.</source>
        <translation>%1: %2, %3 je Ziel, %4 zugewiesen. Doppelklick oder F2 benennt um.</translation>
    </message>
    <message numerus="yes">
        <source>%n targets</source>
        <translation>
            <numerusform>%n Ziel</numerusform>
            <numerusform>%n Ziele</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n outstanding I/Os</source>
        <translation>
            <numerusform>%n ausstehendes I⁠/⁠O</numerusform>
            <numerusform>%n ausstehende I⁠/⁠Os</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n specs</source>
        <translation>
            <numerusform>%n Spezifikation</numerusform>
            <numerusform>%n Spezifikationen</numerusform>
        </translation>
    </message>
    <message>
        <source>Test file %1 (%2)</source>
        <translation>Testdatei %1 (%2)</translation>
    </message>
    <message>
        <source>Raw device %1</source>
        <translation>Rohgerät %1</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>Topologie</translation>
    </message>
    <message>
        <source>File tree %1 (%2)</source>
        <translation>Dateibaum %1 (%2)</translation>
    </message>
    <message>
        <source>Manager %1: not run here (%2)</source>
        <translation>Manager %1: läuft nicht hier (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n workers</source>
        <translation>
            <numerusform>%n Worker</numerusform>
            <numerusform>%n Worker</numerusform>
        </translation>
    </message>
    <message>
        <source>Another manager of this profile (an Iometer file can name several). IOPrism runs the first manager&apos;s workers on this machine; this one&apos;s are kept in the profile, so that saving it as .icf keeps them, and their problems do not stop a run.</source>
        <translation>Ein weiterer Manager dieses Profils (eine Iometer-Datei kann mehrere nennen). IOPrism führt die Worker des ersten Managers auf diesem Rechner aus; die dieses Managers bleiben im Profil, damit sie beim Speichern als .icf erhalten bleiben, und ihre Probleme halten keinen Lauf auf.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>no targets</source>
        <translation>keine Ziele</translation>
    </message>
    <message>
        <source>Manager %1; %2%3</source>
        <translation>Manager %1; %2%3</translation>
    </message>
    <message>
        <source>: disconnected</source>
        <translation>: getrennt</translation>
    </message>
    <message>
        <source>A manager on another host: its workers run there, together with this host&apos;s, step by step. Its workers start as a copy of this host&apos;s (the same workload on every manager, e.g. on shared storage).</source>
        <translation>Ein Manager auf einem anderen Rechner: Seine Worker laufen dort, zusammen mit denen dieses Rechners, Schritt für Schritt. Seine Worker beginnen als Kopie derer dieses Rechners (dieselbe Last auf jedem Manager, z. B. auf gemeinsamem Speicher).</translation>
    </message>
    <message>
        <source>Disconnected: %1</source>
        <translation>Getrennt: %1</translation>
    </message>
    <message>
        <source>Select this manager or one of its workers to edit its workers: the worker buttons, the worker&apos;s settings, the Targets page and the run order then act on this manager&apos;s.</source>
        <translation>Diesen Manager oder einen seiner Worker wählen, um seine Worker zu bearbeiten: Die Worker-Schaltflächen, die Einstellungen des Workers, die Seite Ziele und die Laufreihenfolge wirken dann auf die dieses Managers.</translation>
    </message>
</context>
<context>
    <name>ioprism::ui::WorkerPanel</name>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Duplizieren</translation>
    </message>
    <message>
        <source>Add a copy of the selected worker with the same targets and specs</source>
        <translation>Eine Kopie des gewählten Workers mit denselben Zielen und Spezifikationen hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected worker</source>
        <translation>Den gewählten Worker entfernen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Outstanding I/Os:</source>
        <translation>&amp;Ausstehende I/Os:</translation>
    </message>
    <message>
        <source>any CPU</source>
        <translation>jede CPU</translation>
    </message>
    <message>
        <source>CPU &amp;affinity:</source>
        <translation>CPU-&amp;Affinität:</translation>
    </message>
    <message>
        <source>random each run</source>
        <translation>zufällig je Lauf</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>&amp;Seed:</translation>
    </message>
    <message>
        <source>&amp;Data pattern:</source>
        <translation>&amp;Datenmuster:</translation>
    </message>
    <message>
        <source>to the end</source>
        <translation>bis zum Ende</translation>
    </message>
    <message>
        <source>Region &amp;start:</source>
        <translation>Bereichs&amp;anfang:</translation>
    </message>
    <message>
        <source>Region si&amp;ze:</source>
        <translation>Bereichs&amp;größe:</translation>
    </message>
    <message>
        <source>No worker selected</source>
        <translation>Kein Worker gewählt</translation>
    </message>
    <message>
        <source>Settings of %1</source>
        <translation>Einstellungen von %1</translation>
    </message>
    <message>
        <source>The worker&apos;s name, as results label it</source>
        <translation>Der Name des Workers, wie die Ergebnisse ihn nennen</translation>
    </message>
    <message>
        <source>I/Os kept in flight on each target (queue depth), 1 to %1. A spec&apos;s QD overrides it.</source>
        <translation>Auf jedem Ziel unterwegs gehaltene I⁠/⁠Os (Warteschlangentiefe), 1 bis %1. Die QD einer Spezifikation hat Vorrang.</translation>
    </message>
    <message>
        <source>CPUs this worker&apos;s thread may run on, e.g. 0-3,8; empty = any</source>
        <translation>CPUs, auf denen der Thread dieses Workers laufen darf, z. B. 0-3,8; leer = jede</translation>
    </message>
    <message>
        <source>Fixed seed for repeatable offsets; empty = a new random seed each run (recorded in the results)</source>
        <translation>Fester Seed für wiederholbare Offsets; leer = je Lauf ein neuer zufälliger Seed (in den Ergebnissen vermerkt)</translation>
    </message>
    <message>
        <source>What this worker&apos;s writes contain, for spec lines without their own pattern</source>
        <translation>Was die Schreibvorgänge dieses Workers enthalten, für Spezifikationszeilen ohne eigenes Muster</translation>
    </message>
    <message>
        <source>Where the tested region of each target starts (targets may set their own)</source>
        <translation>Wo der getestete Bereich jedes Ziels beginnt (Ziele können einen eigenen setzen)</translation>
    </message>
    <message>
        <source>Size of the tested region of each target; 0 = to the end</source>
        <translation>Größe des getesteten Bereichs jedes Ziels; 0 = bis zum Ende</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a CPU list</source>
        <translation>„%1“ ist keine CPU-Liste</translation>
    </message>
    <message>
        <source>CPUs, e.g. 0-3,8</source>
        <translation>CPUs, z. B. 0-3,8</translation>
    </message>
    <message>
        <source>Every step: Iometer&apos;s cycling sets the depth, %1 to %2 (Test Setup).</source>
        <translation>Jeder Schritt: Iometers Zyklus setzt die Tiefe, %1 bis %2 (Testeinstellungen).</translation>
    </message>
    <message numerus="yes">
        <source>&quot;%1&quot; runs at %n outstanding I/Os: the spec&apos;s queue depth.</source>
        <translation>
            <numerusform>„%1“ läuft mit %n ausstehenden I⁠/⁠O: die Tiefe der Spezifikation.</numerusform>
            <numerusform>„%1“ läuft mit %n ausstehenden I⁠/⁠Os: die Tiefe der Spezifikation.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&quot;%1&quot; runs at %n outstanding I/Os: this worker&apos;s value.</source>
        <translation>
            <numerusform>„%1“ läuft mit %n ausstehenden I⁠/⁠O: der Wert dieses Workers.</numerusform>
            <numerusform>„%1“ läuft mit %n ausstehenden I⁠/⁠Os: der Wert dieses Workers.</numerusform>
        </translation>
    </message>
    <message>
        <source>A series may set the depth of its points (Test Setup).</source>
        <translation>Eine Serie kann die Tiefe ihrer Punkte setzen (Testeinstellungen).</translation>
    </message>
    <message>
        <source>Targets with their own value use it where no spec sets one.</source>
        <translation>Ziele mit eigenem Wert verwenden ihn, wo keine Spezifikation einen setzt.</translation>
    </message>
    <message>
        <source>The queue depth each assigned spec runs at: a spec&apos;s own queue depth (QD, the Q in Q32T1) and Iometer&apos;s cycling of outstanding I/Os override the worker&apos;s value</source>
        <translation>Die Warteschlangentiefe, mit der jede zugewiesene Spezifikation läuft: die eigene Tiefe einer Spezifikation (QD, das Q in Q32T1) und Iometers Zyklus der ausstehenden I⁠/⁠Os gehen dem Wert des Workers vor</translation>
    </message>
    <message>
        <source>Iometer&apos;s &quot;Test Connection Rate&quot;: each of this worker&apos;s targets is closed and opened again every so many transactions, and the open, close and connection (open to close) times are reported with connections per second on the Results page. Off: each target stays open for the whole step.</source>
        <translation>„Test Connection Rate“ von Iometer: jedes Ziel dieses Workers wird nach so vielen Transaktionen geschlossen und wieder geöffnet; die Zeiten für Öffnen, Schließen und Verbindung (Öffnen bis Schließen) stehen mit den Verbindungen pro Sekunde auf der Seite „Ergebnisse“. Aus: jedes Ziel bleibt den ganzen Schritt über offen.</translation>
    </message>
    <message>
        <source>Iometer&apos;s &quot;# of Transactions per Connection&quot;: the transactions (an I/O with its reply) between an open of the target and its close; the I/O in flight completes before the target is closed</source>
        <translation>„# of Transactions per Connection“ von Iometer: die Transaktionen (eine I⁠/⁠O mit ihrer Antwort) zwischen dem Öffnen des Ziels und seinem Schließen; laufende I⁠/⁠O wird abgeschlossen, bevor das Ziel geschlossen wird</translation>
    </message>
    <message>
        <source>Test co&amp;nnection rate</source>
        <translation>Verbindungsrate &amp;testen</translation>
    </message>
    <message numerus="yes">
        <source> transaction(s)</source>
        <translation>
            <numerusform> Transaktion</numerusform>
            <numerusform> Transaktionen</numerusform>
        </translation>
    </message>
    <message>
        <source>The managers (this host first), their workers and each worker&apos;s targets. Select a manager or one of its workers to edit that manager&apos;s workers; select a worker to edit its targets, specs and settings.</source>
        <translation>Die Manager (dieser Rechner zuerst), ihre Worker und die Ziele jedes Workers. Einen Manager oder einen seiner Worker wählen, um die Worker dieses Managers zu bearbeiten; einen Worker wählen, um seine Ziele, Spezifikationen und Einstellungen zu bearbeiten.</translation>
    </message>
    <message>
        <source>Add a disk worker (a thread that runs I/O on its targets) to the selected manager</source>
        <translation>Dem gewählten Manager einen Disk-Worker hinzufügen (einen Thread, der I⁠/⁠O auf seinen Zielen ausführt)</translation>
    </message>
    <message>
        <source>Settings of %1 on %2</source>
        <translation>Einstellungen von %1 auf %2</translation>
    </message>
</context>
</TS>
