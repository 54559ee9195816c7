#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kernel-doc-filter.py FILE - Doxygen INPUT_FILTER: print FILE with its
kernel-doc comments rewritten as Doxygen markup, line for line (so Doxygen's
line numbers stay right).

  /**                                   /**
   * name() - summary            ->      * @brief summary
   * @arg: text                  ->      * @param arg text      (functions)
   * @member: text               ->      * - @b member: text    (struct, enum)
   * Return: text                ->      * @return text
   * Thread safety: text         ->      * @remark Thread safety: text
   * ... with @arg set ...       ->      * ... with @p arg set ...
"""
import re
import sys

HEAD = re.compile(r'^(\s*\*\s*)(?:(struct|enum|union|typedef)\s+)?([A-Za-z_][A-Za-z0-9_]*)(\(\))?\s+-\s+(.*)$')
ARG = re.compile(r'^(\s*\*\s*)@([A-Za-z_][A-Za-z0-9_]*|\.\.\.):\s*(.*)$')
SECTION = re.compile(r'^(\s*\*\s*)(Return|Returns|Thread safety|Context|Note):\s*(.*)$')
REF = re.compile(r'(?<![\w@])@([A-Za-z_][A-Za-z0-9_]*)\b')


def main(path):
    out = []
    in_doc = False
    first = False
    kind = None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for line in lines:
        stripped = line.strip()
        if not in_doc:
            if stripped.startswith('/**') and not stripped.startswith('/***'):
                lead = line[:line.index('/**')]
                rest = stripped[3:].strip()
                closed = rest.endswith('*/')
                if closed:
                    rest = rest[:-2].strip()
                # "/** name() - summary" on the opening line
                m = re.match(r'^(?:(struct|enum|union|typedef)\s+)?[A-Za-z_][A-Za-z0-9_]*(\(\))?\s+-\s+(.*)$', rest)
                if m:
                    rest = '@brief ' + REF.sub(r'@p \1', m.group(3))
                elif rest:
                    rest = REF.sub(r'@p \1', rest)
                line = lead + '/** ' + rest + (' */' if closed else '') if rest else line
                if closed:
                    out.append(line)
                    continue
                in_doc, first = True, not m
                kind = 'function' if not m or m.group(2) else 'other'
                out.append(line)
                continue
            out.append(line)
            continue
        if stripped.endswith('*/'):
            in_doc = False
            out.append(line)
            continue
        if first:
            m = HEAD.match(line)
            if m:
                kind = m.group(2) or ('function' if m.group(4) else 'other')
                line = m.group(1) + '@brief ' + REF.sub(r'@p \1', m.group(5))
                first = False
                out.append(line)
                continue
            if stripped not in ('*', ''):
                first = False
        m = ARG.match(line)
        if m:
            if kind == 'function':
                line = m.group(1) + '@param ' + m.group(2) + ' ' + REF.sub(r'@p \1', m.group(3))
            else:
                line = m.group(1) + '- @b ' + m.group(2) + ': ' + REF.sub(r'@p \1', m.group(3))
            out.append(line)
            continue
        m = SECTION.match(line)
        if m:
            if m.group(2).startswith('Return'):
                line = m.group(1) + '@return ' + REF.sub(r'@p \1', m.group(3))
            else:
                line = m.group(1) + '@remark ' + m.group(2) + ': ' + REF.sub(r'@p \1', m.group(3))
            out.append(line)
            continue
        out.append(REF.sub(r'@p \1', line))
    sys.stdout.write('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1])
