"""Titled tables that render as text beside HTML, for the `%numbat` magics."""

from __future__ import annotations

from ._html import escape

_BOX = (
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;line-height:1.4;"
    "color:inherit;margin:2px 0;"
)
_TABLE = "border-collapse:collapse;margin:2px 0 8px 0;border:1px solid rgba(128,128,128,0.3);max-width:100%;"
_TH = "padding:1px 8px;text-align:left;background:rgba(128,128,128,0.12);font-weight:600;"
# Cells wrap (at spaces and commas) so that a wide table fits the notebook's width instead
# of losing its last columns past the right edge.
_TD = "padding:1px 8px;text-align:left;overflow-wrap:break-word;border-top:1px solid rgba(128,128,128,0.2);"
_DIM = "opacity:0.7;"


class Section:
    """A titled table: `header` names the columns, `rows` hold strings; a
    `note` says something when there are no rows (or beside them)."""

    def __init__(self, title: str, header: tuple, rows: list, note: str = ""):
        self.title, self.header, self.rows, self.note = (
            title,
            header,
            [tuple(map(str, r)) for r in rows],
            note,
        )

    def text(self) -> str:
        lines = [self.title]
        if self.rows:
            widths = [max(len(str(cell)) for cell in column) for column in zip(self.header, *self.rows)]
            for row in (self.header, *self.rows):
                lines.append("  " + "  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip())
        if self.note:
            lines.append("  " + self.note)
        return "\n".join(lines)

    def html(self) -> str:
        parts = [f"<div style='font-weight:600'>{escape(self.title)}</div>"]
        if self.rows:
            head = "".join(f"<th style='{_TH}'>{escape(cell)}</th>" for cell in self.header)
            body = "".join(
                "<tr>" + "".join(f"<td style='{_TD}'>{escape(cell)}</td>" for cell in row) + "</tr>"
                for row in self.rows
            )
            parts.append(f"<table style='{_TABLE}'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        if self.note:
            parts.append(f"<div style='{_DIM}margin-bottom:8px'>{escape(self.note)}</div>")
        return "".join(parts)


def bundle(sections: list[Section]) -> dict[str, str]:
    """The text/plain + text/html mimebundle of `sections`."""
    return {
        "text/plain": "\n\n".join(section.text() for section in sections),
        "text/html": f"<div class='numbat-info' style='{_BOX}'>{''.join(s.html() for s in sections)}</div>",
    }
