/// A public initialiser taking every stored property in the order declared, like Swift's memberwise initialiser
/// (which is internal): for the small value types other modules build (the repositories, the edge, the contract
/// suites). A `var` with an initial value takes it as its default; an optional `var` without one defaults to nil.
@attached(member, names: named(init))
public macro PublicInit() = #externalMacro(module: "PlacesMacros", type: "PublicInitMacro")
