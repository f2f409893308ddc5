// `import Boilerplate` gives a project every runtime package of the kit. ModelGen reaches apps
// through its build plugin and `boiler`; import `ModelGen` itself to use the library.
@_exported import Commands
@_exported import Errors
@_exported import EventBus
@_exported import Networking
@_exported import Operations
@_exported import Router
@_exported import Serialization
@_exported import Storage
