"""Write the example corpus's PDF files by hand (no libraries, no fonts to download).

Run from anywhere: `python examples/handbook/make_pdf.py`. The output is
deterministic (no timestamps), uses the built-in Helvetica font, and pypdf can
extract its text. Each page is a list of paragraphs; the first is the heading.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent / "corpus"

GOVERNANCE = [
    [
        "Working Hours and Time Recording",
        "The standard working week at Northwind Labs is 40 hours for full-time employees. "
        "Core hours are 10:00 to 16:00 local time, when everyone is expected to be available "
        "for meetings. Outside core hours you choose when to work, in agreement with your team.",
        "Time is recorded weekly in PeopleHub by employees on hourly contracts. Salaried "
        "employees record only absences and overtime.",
        "Meetings are not scheduled on Friday afternoons, which are kept free for focused work.",
    ],
    [
        "Company Holidays",
        "All offices close between 24 December and 1 January. These closure days are paid and "
        "do not count against annual leave.",
        "In addition, each office observes the public holidays of its country. The list of "
        "public holidays for the year is published on the intranet every November.",
        "Employees who must work during the closure, for example on-call engineers, receive "
        "one day of time off in lieu for each closure day worked.",
    ],
    [
        "On-call Duty",
        "Engineering teams that run production systems keep an on-call rotation. An on-call "
        "week runs from Monday 10:00 to the following Monday 10:00.",
        "On-call engineers receive an allowance of 150 euros per week, plus time off in lieu "
        "for every call-out outside working hours that lasts longer than 30 minutes.",
        "Nobody is on call for more than one week in four.",
    ],
    [
        "Disciplinary and Grievance Procedure",
        "Concerns about conduct or performance are first discussed informally with the "
        "manager. If they continue, a formal meeting is held with a member of the People team, "
        "and the employee may bring a colleague.",
        "Outcomes are a written warning, a final written warning, or dismissal for serious "
        "misconduct. Warnings remain on file for 12 months.",
        "Employees can raise a grievance in writing to the People team, who respond within "
        "10 working days.",
    ],
]

EMERGENCY = [
    [
        "Emergency Procedures",
        "In case of fire, leave the building by the nearest marked exit and go to the "
        "assembly point. Do not use the lifts. Fire wardens wear yellow vests and check "
        "that each floor is empty.",
        "The Lisbon assembly point is the small square in front of the Flores bakery, across "
        "the street from the main entrance.",
    ],
    [
        "First Aid",
        "First aid kits are next to the kitchen on every floor. Each office has at least two "
        "trained first aiders, whose names are posted at reception.",
        "For medical emergencies call 112 in Lisbon, 995 in Singapore and 911 in Toronto, then "
        "inform reception.",
    ],
]


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _page_stream(paragraphs: list[str]) -> bytes:
    lines = ["BT", "/F1 16 Tf", "72 760 Td", "18 TL", f"({_escape(paragraphs[0])}) Tj", "T*"]
    lines += ["/F1 11 Tf", "14 TL"]
    for para in paragraphs[1:]:
        lines.append("T*")
        for row in textwrap.wrap(para, 88):
            lines.append(f"({_escape(row)}) Tj T*")
    lines.append("ET")
    return "\n".join(lines).encode("latin-1")


def build_pdf(pages: list[list[str]], title: str) -> bytes:
    """A minimal PDF 1.4: catalog, pages, one Helvetica font, one stream per page."""
    n = len(pages)
    font_id, first_page = 3, 4
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids ["
        + b" ".join(f"{first_page + 2 * i} 0 R".encode() for i in range(n))
        + f"] /Count {n} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for i, page in enumerate(pages):
        content_id = first_page + 2 * i + 1
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content_id} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        stream = _page_stream(page)
        objects.append(
            f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream"
        )
    info_id = len(objects) + 1
    objects.append(f"<< /Title ({_escape(title)}) /Producer (make_pdf.py) >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for num, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{num} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info_id} 0 R >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def main() -> None:
    (HERE / "policies").mkdir(parents=True, exist_ok=True)
    (HERE / "policies" / "working-time.pdf").write_bytes(
        build_pdf(GOVERNANCE, "Working Time, Holidays and Procedures")
    )
    (HERE / "workplace").mkdir(parents=True, exist_ok=True)
    (HERE / "workplace" / "emergency-procedures.pdf").write_bytes(
        build_pdf(EMERGENCY, "Emergency Procedures")
    )


if __name__ == "__main__":
    main()
