"""The small files that stand in for big binaries in the migrate corpus: the same bytes as
../shared/corpus/sites uses (an 8x8 picture of each format, a valid one-page PDF), so both
corpora follow one rule (see that folder's README)."""

import base64

_PICTURES = {
    'jpg': (
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwg"
        "JC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIy"
        "MjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAAIAAgDASIAAhEBAxEB/8QA"
        "HwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIh"
        "MUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW"
        "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG"
        "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQF"
        "BgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAV"
        "YnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOE"
        "hYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq"
        "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD0iiiigD//2Q=="
    ),
    'png': (
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAFUlEQVR4nGM8ceIEAzbAhFV00EoAANcn"
        "AmjjOKqVAAAAAElFTkSuQmCC"
    ),
    'gif': (
        "R0lGODdhCAAIAIEAAJmZmcyZmZnMzMzMzCwAAAAACAAIAAAIFQAHCBxIsKDBgwcBIFw4QIDBAAIDAgA7"
    ),
    'webp': (
        "UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoIAAgAAUAmJaQAA3AA/vdCAAA="
    ),
    'ico': (
        "AAABAAEACAgAAAAAIABOAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAIAAAACAgCAAAAS20p3AAAABVJ"
        "REFUeJxjPHHiBAM2wIRVdNBKAADXJwJo4ziqlQAAAABJRU5ErkJggg=="
    ),
    'pdf': (
        "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIg"
        "MCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFszIDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBv"
        "YmoKPDwgL1R5cGUgL1BhZ2UgL1BhcmVudCAyIDAgUiAvTWVkaWFCb3ggWzAgMCA2MTIgNzkyXSAvQ29u"
        "dGVudHMgNCAwIFIgL1Jlc291cmNlcyA8PCAvRm9udCA8PCAvRjEgNSAwIFIgPj4gPj4gPj4KZW5kb2Jq"
        "CjQgMCBvYmoKPDwgL0xlbmd0aCA3OCA+PgpzdHJlYW0KQlQgL0YxIDEyIFRmIDcyIDcyMCBUZCAoUGxh"
        "Y2Vob2xkZXIgZm9yIGEgZmlsZSBsZWZ0IG91dCBvZiB0aGlzIGNvcnB1cy4pIFRqIEVUCmVuZHN0cmVh"
        "bQplbmRvYmoKNSAwIG9iago8PCAvVHlwZSAvRm9udCAvU3VidHlwZSAvVHlwZTEgL0Jhc2VGb250IC9I"
        "ZWx2ZXRpY2EgPj4KZW5kb2JqCnhyZWYKMCA2CjAwMDAwMDAwMDAgNjU1MzUgZiAKMDAwMDAwMDAwOSAw"
        "MDAwMCBuIAowMDAwMDAwMDU4IDAwMDAwIG4gCjAwMDAwMDAxMTUgMDAwMDAgbiAKMDAwMDAwMDI0MSAw"
        "MDAwMCBuIAowMDAwMDAwMzY5IDAwMDAwIG4gCnRyYWlsZXIKPDwgL1NpemUgNiAvUm9vdCAxIDAgUiA+"
        "PgpzdGFydHhyZWYKNDM5CiUlRU9GCg=="
    ),
}

PICTURES = {"jpeg" if ext == "jpg" else ext: base64.b64decode("".join(data))
            for ext, data in _PICTURES.items()}
NAMES = {"jpeg": "8x8 JPEG", "png": "8x8 PNG", "gif": "8x8 GIF", "webp": "8x8 WEBP",
         "ico": "8x8 ICO", "pdf": "one-page PDF"}
ALIASES = {"jpg": "jpeg", "jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp",
           "ico": "ico", "pdf": "pdf"}
# Text that no migration parses, by suffix: what stands in for it, and how the line says so.
TEXT = {
    "svg": (b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>\n', "minimal SVG"),
    "html": (b"<!DOCTYPE html>\n<html><head><title>placeholder</title></head><body><p>"
             b"Replaced in the corpus.</p></body></html>\n", "minimal HTML"),
    "htm": (b"<!DOCTYPE html>\n<html><head><title>placeholder</title></head><body><p>"
            b"Replaced in the corpus.</p></body></html>\n", "minimal HTML"),
    "js": (b"/* replaced in the corpus */\n", "comment-only"),
    "css": (b"/* replaced in the corpus */\n", "comment-only"),
}
SHORT_TEXT = (b"placeholder: this file was replaced in the corpus\n", "short text")


def stand_in(name: str) -> tuple[bytes, str]:
    """The bytes that replace a big file named `name`, and the words naming them."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ext in ALIASES:
        kind = ALIASES[ext]
        return PICTURES[kind], f"a {NAMES[kind]} placeholder"
    if ext in TEXT:
        data, words = TEXT[ext]
        return data, f"a {words} placeholder"
    return SHORT_TEXT[0], f"a {SHORT_TEXT[1]} placeholder"
