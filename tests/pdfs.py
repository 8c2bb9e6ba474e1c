"""PDFs written by hand for the --from tests (offsets computed), from a list of objects; object 1 is the catalog."""

from __future__ import annotations


def pdf_file(objects: list[bytes]) -> bytes:
    body, offsets = b"%PDF-1.4\n", []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(body))
        body += f"{number} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(body)
    body += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    body += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    return body + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()


def text_pdf(text: str) -> bytes:
    """A one-page PDF with ``text`` on it."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    return pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                     b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                     b"/Resources << /Font << /F1 5 0 R >> >> >>",
                     b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
                     b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])
