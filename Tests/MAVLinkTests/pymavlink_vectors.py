#!/usr/bin/env python3
"""pymavlink's side of the MAVLink codec cross-check (Tests/MAVLinkTests, docs/mavlink.md §6).

  pymavlink_vectors.py generate        prints the vector file: seeded messages, encoded by pymavlink
                                       (Tests/MAVLinkTests/Fixtures/pymavlink-vectors.json is this
                                       output, checked in; the Swift test compares the two)
  pymavlink_vectors.py decode FILE     decodes each hex frame of FILE (one a line) with pymavlink and
                                       prints one JSON object a line: its header and field values

Field values are written the same way both ways, so the Swift side compares bits, not text:
every field is a list of its elements' bit patterns, zero-extended (a negative int16 -1 is 65535,
a float its IEEE-754 single bits, NaN payloads kept; char[N] its N bytes). Floats are quiet NaNs
only: Python turns a signalling NaN quiet when it converts to its double (the Swift property
test covers signalling NaNs). Needs pymavlink (pinned in scripts/ensure-deps.sh).
"""
import json
import random
import struct
import sys

from pymavlink.dialects.v20 import common

try:
    from importlib.metadata import version as package_version
    PYMAVLINK_VERSION = package_version("pymavlink")
except Exception:  # pragma: no cover - metadata missing
    PYMAVLINK_VERSION = "unknown"

# The messages of docs/mavlink.md §4.4, in id order of the Swift module's table, except those added later
# (COMMAND_INT for the camera's region of interest, then the camera's CAMERA_INFORMATION and
# CAMERA_CAPTURE_STATUS): last, in the order added, so the vectors generated before them stay as they were.
MESSAGES = [
    "HEARTBEAT", "SYS_STATUS", "PARAM_REQUEST_READ", "PARAM_VALUE", "ATTITUDE", "LOCAL_POSITION_NED", "GLOBAL_POSITION_INT",
    "COMMAND_LONG", "COMMAND_ACK", "SET_POSITION_TARGET_LOCAL_NED", "FOLLOW_TARGET",
    "HOME_POSITION", "EXTENDED_SYS_STATE", "STATUSTEXT", "COMMAND_INT",
    "CAMERA_INFORMATION", "CAMERA_CAPTURE_STATUS",
]
# Extension fields (after <extensions/> in common.xml); pymavlink's class does not mark them.
EXTENSIONS = {
    "SYS_STATUS": ["onboard_control_sensors_present_extended", "onboard_control_sensors_enabled_extended",
                   "onboard_control_sensors_health_extended"],
    "HOME_POSITION": ["time_usec"],
    "STATUSTEXT": ["id", "chunk_seq"],
    "COMMAND_ACK": ["progress", "result_param2", "target_system", "target_component"],
    "CAMERA_INFORMATION": ["gimbal_device_id", "camera_device_id"],
    "CAMERA_CAPTURE_STATUS": ["image_count", "camera_device_id"],
}
SIZES = {"uint8_t": 1, "int8_t": 1, "char": 1, "uint16_t": 2, "int16_t": 2, "uint32_t": 4, "int32_t": 4,
         "float": 4, "uint64_t": 8, "int64_t": 8, "double": 8}
FLOAT_EDGES = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC12345, 0xFFC00001,
               0x7F7FFFFF, 0xFF7FFFFF, 0x00000001, 0x3FC00000]
SEED = 0x4D41564C  # "MAVL"
CASES_PER_MESSAGE = 9


def message_class(name):
    return getattr(common, "MAVLink_%s_message" % name.lower())


def layout(name):
    """(field, type, count) in wire order (pymavlink's ordered_fieldnames)."""
    cls = message_class(name)
    out = []
    for field in cls.ordered_fieldnames:
        index = cls.fieldnames.index(field)
        # pymavlink lists array_lengths in wire order, fieldtypes in declaration order (they differ
        # for PARAM_REQUEST_READ: param_index moves first, param_id[16] last).
        count = cls.array_lengths[cls.ordered_fieldnames.index(field)]
        out.append((field, cls.fieldtypes[index], count or 1))
    return out


def element(rng, ftype, mode):
    """One element's bits for a wire type; mode: zero, max, min or random."""
    size = SIZES[ftype]
    if ftype == "float":
        if mode == "zero":
            return 0
        if mode == "max":
            return 0x7F7FFFFF
        if mode == "min":
            return rng.choice(FLOAT_EDGES)
        bits = rng.getrandbits(32) if rng.random() < 0.5 else rng.choice(FLOAT_EDGES)
        if bits & 0x7F800000 == 0x7F800000 and bits & 0x007FFFFF:
            bits |= 0x00400000  # quiet NaN only (see the module comment)
        return bits
    signed = ftype.startswith("int")
    top = (1 << (8 * size)) - 1
    if mode == "zero":
        return 0
    if mode == "max":
        return top >> 1 if signed else top
    if mode == "min":
        return 1 << (8 * size - 1) if signed else 0
    return rng.choice([0, 1, top, top >> 1, rng.getrandbits(8 * size), rng.getrandbits(8 * size)])


def text_bytes(rng, count, mode):
    if mode == "zero":
        return [0] * count
    if mode == "max":
        length = count
    else:
        length = rng.choice([0, 1, count - 1, count, rng.randrange(count)])
    return [rng.randrange(0x20, 0x7F) for _ in range(length)] + [0] * (count - length)


def generate_fields(rng, name, mode):
    fields = {}
    for field, ftype, count in layout(name):
        if ftype == "char":
            fields[field] = text_bytes(rng, count, mode)
        else:
            fields[field] = [element(rng, ftype, mode) for _ in range(count)]
    if mode == "random" and rng.random() < 0.5:
        for field in EXTENSIONS.get(name, []):  # an older sender: extensions absent (zero, truncated)
            fields[field] = [0] * len(fields[field])
    return fields


def to_python(ftype, bits_list, count):
    """Field bits -> the value pymavlink's constructor takes."""
    if ftype == "char":
        return bytes(bits_list)
    values = []
    for bits in bits_list:
        if ftype == "float":
            values.append(struct.unpack("<f", struct.pack("<I", bits))[0])
        elif ftype.startswith("int"):
            size = SIZES[ftype]
            values.append(bits - (1 << (8 * size)) if bits >> (8 * size - 1) else bits)
        else:
            values.append(bits)
    return values if count > 1 else values[0]


def to_bits(ftype, value, count):
    """A pymavlink field value -> bits, as in the vector file."""
    if ftype == "char":
        raw = bytes(value)
        return list(raw) + [0] * (count - len(raw))
    values = value if count > 1 else [value]
    out = []
    for v in values:
        if ftype == "float":
            out.append(struct.unpack("<I", struct.pack("<f", v))[0])
        else:
            out.append(v & ((1 << (8 * SIZES[ftype])) - 1))
    return out


def encode(name, fields, seq, sysid, compid, version=2, signed=False):
    cls = message_class(name)
    types = {f: (t, c) for f, t, c in layout(name)}
    args = [to_python(types[f][0], fields[f], types[f][1]) for f in cls.fieldnames]
    msg = cls(*args)
    mav = common.MAVLink(None, srcSystem=sysid, srcComponent=compid)
    mav.seq = seq
    if signed:
        mav.signing.secret_key = bytes(range(32))
        mav.signing.link_id = 7
        mav.signing.timestamp = 0x0102030405
        mav.signing.sign_outgoing = True
    return bytes(msg.pack(mav, force_mavlink1=(version == 1)))


def vector_line(name, fields, seq, sysid, compid, version=2, signed=False):
    frame = encode(name, fields, seq, sysid, compid, version, signed)
    record = {"message": name, "id": message_class(name).id, "version": version, "signed": signed,
              "seq": seq, "sysid": sysid, "compid": compid, "fields": fields, "hex": frame.hex()}
    return json.dumps(record, separators=(",", ":"))


def generate():
    rng = random.Random(SEED)
    lines = []
    for name in MESSAGES:
        for case in range(CASES_PER_MESSAGE):
            mode = ["zero", "max", "min"][case] if case < 3 else "random"
            fields = generate_fields(rng, name, mode)
            lines.append(vector_line(name, fields, rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        # A v1 frame (base fields only, never truncated) and a signed v2 frame of the same values.
        fields = generate_fields(rng, name, "random")
        for field in EXTENSIONS.get(name, []):
            fields[field] = [0] * len(fields[field])
        # (MAVLink 1 carries 8-bit ids only: none for the camera's messages, 259 and 262.)
        if message_class(name).id <= 255:
            lines.append(vector_line(name, fields, rng.randrange(256), 1, 1, version=1))
        lines.append(vector_line(name, fields, rng.randrange(256), 255, 190, signed=True))
    print('{"generator":"Tests/MAVLinkTests/pymavlink_vectors.py generate","pymavlink":"%s","seed":%d,"vectors":[' % (PYMAVLINK_VERSION, SEED))
    print(",\n".join(lines))
    print("]}")


def decode(path):
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            mav = common.MAVLink(None)
            try:
                msgs = mav.parse_buffer(bytes.fromhex(line)) or []
            except Exception as error:  # a rejected frame is a result, not a crash
                print(json.dumps({"error": str(error)}))
                continue
            if len(msgs) != 1:
                print(json.dumps({"error": "%d messages" % len(msgs)}))
                continue
            msg = msgs[0]
            name = msg.get_type()
            header = msg.get_header()
            record = {"message": name, "seq": header.seq, "sysid": header.srcSystem, "compid": header.srcComponent}
            if name in MESSAGES:
                fields = {}
                for field, ftype, count in layout(name):
                    value = getattr(msg, "_%s_raw" % field) if ftype == "char" else getattr(msg, field)
                    fields[field] = to_bits(ftype, value, count)
                record["fields"] = fields
            print(json.dumps(record, separators=(",", ":")))


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "generate":
        generate()
    elif len(sys.argv) == 3 and sys.argv[1] == "decode":
        decode(sys.argv[2])
    else:
        sys.exit(__doc__)
