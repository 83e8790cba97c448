#!/usr/bin/env python3
"""Writes an Apple Health export.xml of N step records over the 360 days before today, for measuring imports.

    scripts/generate-export.py 1000000 /tmp/export.xml

Every record is an Apple Watch's, twenty seconds long, in New York's winter offset; all fall inside Hale's default
sample window, so each is stored (once: their content differs). Tests use HealthExport's AppleHealthExportGenerator,
whose exports hold every kind of element; this one is for size.
"""
import datetime
import sys

count, path = int(sys.argv[1]), sys.argv[2]
today = datetime.date.today()
days = 360
per_day = (count + days - 1) // days
watch = ("&lt;&lt;HKDevice: 0x283a9c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
         "hardware:Watch6,2, software:10.3&gt;")


def clock(seconds):
    seconds = min(seconds, 86_399)
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


with open(path, "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n'
              '<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>\n'
              ']>\n<HealthData locale="en_US">\n <ExportDate value="%s 00:00:00 -0500"/>\n' % today)
    written = 0
    for offset in range(days, 0, -1):
        day = today - datetime.timedelta(days=offset)
        for index in range(min(per_day, count - written)):
            start = index * 86_400 // per_day
            end = clock(start + 20)
            out.write(' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" sourceVersion="10.3" '
                      'device="%s" unit="count" creationDate="%s %s -0500" startDate="%s %s -0500" '
                      'endDate="%s %s -0500" value="%d"/>\n'
                      % (watch, day, end, day, clock(start), day, end, 5 + index % 20))
            written += 1
    out.write("</HealthData>\n")
print(written)
