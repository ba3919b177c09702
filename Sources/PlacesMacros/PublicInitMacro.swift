import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@PublicInit` on a struct: a public initialiser taking each stored property in the order declared, as Swift's own
/// memberwise initialiser does (which is never public): a `var` with an initial value takes it as its default, an
/// optional `var` without one defaults to nil, and a `let` with an initial value is not a parameter.
public struct PublicInitMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else { throw Refusal("@PublicInit makes initialisers of structs only") }
        var parameters: [String] = []
        var assignments: [String] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                // Computed properties, and constants with their value, are not parameters.
                guard binding.accessorBlock == nil, !(isLet && binding.initializer != nil) else { continue }
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription else {
                    throw Refusal("@PublicInit needs stored properties with plain names")
                }
                guard let type = binding.typeAnnotation?.type.trimmed else {
                    throw Refusal("@PublicInit needs the type of '\(name)' written out")
                }
                var parameter = "\(name): \(type.trimmedDescription)"
                if let value = binding.initializer?.value {
                    parameter += " = \(value.trimmedDescription)"
                } else if !isLet, type.is(OptionalTypeSyntax.self) {
                    parameter += " = nil"
                }
                parameters.append(parameter)
                assignments.append("self.\(name) = \(name)")
            }
        }
        return [
            """
            /// Makes a value from each of its stored properties.
            public init(\(raw: parameters.joined(separator: ", "))) {
                \(raw: assignments.joined(separator: "\n"))
            }
            """
        ]
    }
}

/// Why `@PublicInit` cannot make an initialiser, said where it is attached.
struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@main
struct PlacesMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [PublicInitMacro.self]
}
