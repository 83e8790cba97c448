@_exported import HaleClient
