"""The runtime layer: the XLA client (which platform, which devices, started or not), the
EXLA settings (client, memory, precision), the signing key and the signed disk cache."""
