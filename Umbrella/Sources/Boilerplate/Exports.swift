// `import Boilerplate` gives a project every package of the kit.
@_exported import Commands
@_exported import Errors
@_exported import EventBus
@_exported import ModelGen
@_exported import Networking
@_exported import Operations
@_exported import Router
@_exported import Serialization
@_exported import Storage
