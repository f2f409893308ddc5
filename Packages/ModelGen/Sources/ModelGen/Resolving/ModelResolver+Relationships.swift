extension ModelResolver {
    /// Checks that every named inverse exists on the destination and points back.
    func checkInverses(_ kept: [EntityDesign]) throws {
        for entity in kept {
            for relationship in entity.relationships {
                guard let inverseName = relationship.inverse, !inverseName.isEmpty,
                    let destination = entities[relationship.destination]
                else { continue }
                let fail = ModelGenError.inverseMismatch(
                    file: file, entity: entity.name, relationship: relationship.name, inverse: inverseName)
                let candidates = lineage(of: destination).flatMap(\.relationships)
                guard let inverse = candidates.first(where: { $0.name == inverseName }) else { throw fail }
                let related = Set(lineage(of: entity).map(\.name))
                let pointsBack =
                    related.contains(inverse.destination)
                    || entities[inverse.destination].map { lineage(of: $0).contains { $0.name == entity.name } } == true
                guard pointsBack, inverse.inverse == nil || inverse.inverse == relationship.name else { throw fail }
            }
        }
    }

    /// Turns to-one relationships that would make a struct contain itself into identifiers.
    ///
    /// A struct cannot hold itself, even through an optional: a loop of to-one values has no
    /// size. Arrays are stored out of line, so to-many relationships never loop. Relationships
    /// on such a loop become identifiers unless the design insists on a value (an error).
    mutating func breakValueCycles(_ resolved: inout [ResolvedEntity]) throws {
        let index = Dictionary(uniqueKeysWithValues: resolved.enumerated().map { ($1.name, $0) })
        for pass in 0..<2 {
            let cyclic = cyclicEdges(resolved, index: index)
            if cyclic.isEmpty { return }
            for (entityIndex, propertyIndex) in cyclic.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
                let entity = resolved[entityIndex]
                let property = entity.properties[propertyIndex]
                let declared = lineage(of: entities[entity.name] ?? EntityDesign(name: entity.name))
                    .flatMap(\.relationships).first { $0.name == property.key }
                let insistsOnValue = declared?.userInfo[option: .reference]?.lowercased() == "value"
                guard pass == 0, !insistsOnValue, let info = property.relationship,
                    let destination = entities[info.destination], !isEnum(destination)
                else {
                    throw ModelGenError.valueCycle(file: file, entity: entity.name, relationship: property.key)
                }
                resolved[entityIndex].properties[propertyIndex].relationship?.isReference = true
                resolved[entityIndex].properties[propertyIndex].baseType = try identifierType(of: destination)
                warnings.append(
                    "Relationship '\(entity.name).\(property.key)' would make '\(entity.name)' contain itself; "
                        + "it stores the identifier of a '\(info.destination)' (set 'boiler.reference' to silence).")
            }
        }
    }

    /// The (entity, property) positions of to-one value edges that lie on a loop (Tarjan's SCC).
    private func cyclicEdges(_ resolved: [ResolvedEntity], index: [String: Int]) -> [(Int, Int)] {
        var edges: [[(target: Int, property: Int)]] = Array(repeating: [], count: resolved.count)
        for (source, entity) in resolved.enumerated() {
            let members: [(String?, Int)]
            switch entity.kind {
            case .structure:
                members = entity.properties.enumerated().compactMap { offset, property in
                    guard let info = property.relationship, !info.isToMany, !info.isReference, !property.isTransient
                    else { return nil }
                    return (info.destination, offset)
                }
            case .associatedEnum, .rawEnum:
                members = []
            }
            for (destination, offset) in members {
                if let destination, let target = index[destination] { edges[source].append((target, offset)) }
            }
        }
        let component = stronglyConnectedComponents(count: resolved.count, edges: edges.map { $0.map(\.target) })
        var result: [(Int, Int)] = []
        for (source, list) in edges.enumerated() {
            for edge in list where component[source] == component[edge.target] {
                result.append((source, edge.property))
            }
        }
        return result
    }

    /// Component number of each node; iterative so deep graphs cannot overflow the stack.
    private func stronglyConnectedComponents(count: Int, edges: [[Int]]) -> [Int] {
        var indexOf = Array(repeating: -1, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var component = Array(repeating: -1, count: count)
        var stack: [Int] = []
        var nextIndex = 0
        var nextComponent = 0
        for start in 0..<count where indexOf[start] == -1 {
            var work: [(node: Int, edge: Int)] = [(start, 0)]
            indexOf[start] = nextIndex
            lowLink[start] = nextIndex
            nextIndex += 1
            stack.append(start)
            onStack[start] = true
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let next = edges[node][edge]
                    if indexOf[next] == -1 {
                        indexOf[next] = nextIndex
                        lowLink[next] = nextIndex
                        nextIndex += 1
                        stack.append(next)
                        onStack[next] = true
                        work.append((next, 0))
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], indexOf[next])
                    }
                } else {
                    work.removeLast()
                    if let parent = work.last { lowLink[parent.node] = min(lowLink[parent.node], lowLink[node]) }
                    if lowLink[node] == indexOf[node] {
                        while let member = stack.popLast() {
                            onStack[member] = false
                            component[member] = nextComponent
                            if member == node { break }
                        }
                        nextComponent += 1
                    }
                }
            }
        }
        return component
    }
}
